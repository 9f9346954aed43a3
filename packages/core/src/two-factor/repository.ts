import { Context, type Effect, type Option } from "effect"
import type { SessionId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { PendingLogin, TwoFactorDevice } from "./model.ts"

/** Users' authenticator apps, backup codes, setups under way and log-ins waiting for a code. */
export class TwoFactorRepository extends Context.Service<TwoFactorRepository, {
  /**
   * The user's app, if any. With `lock`, the row stays locked until the transaction ends, so log-ins
   * checking codes for one user on several servers take turns and each sees the others' failures.
   */
  readonly device: (user: UserId, lock: boolean) => Effect.Effect<Option.Option<TwoFactorDevice>>
  /**
   * Turns the app on with `secret` (replacing an earlier one, and forgetting the browsers remembered for
   * it), its first code's step already used.
   */
  readonly enable: (user: UserId, secret: string, step: number) => Effect.Effect<void>
  /** A code was taken: its step is used up and the failures are forgotten. */
  readonly recordSuccess: (user: UserId, step: number | null) => Effect.Effect<void>
  readonly recordFailure: (user: UserId, at: Timestamp) => Effect.Effect<void>
  /** Replaces the user's backup codes with these hashes. */
  readonly replaceBackupCodes: (user: UserId, hashes: ReadonlyArray<string>) => Effect.Effect<void>
  /** Removes the backup code with this hash; whether there was one. */
  readonly useBackupCode: (user: UserId, hash: string) => Effect.Effect<boolean>
  readonly backupCodesLeft: (user: UserId) => Effect.Effect<number>
  /** Removes the app, the backup codes, the remembered browsers and the log-ins waiting for a code. */
  readonly disable: (user: UserId) => Effect.Effect<void>
  /** Holds a started setup's secret for the session that started it, replacing an earlier one. */
  readonly putSetup: (session: SessionId, secret: string, expires_at: Timestamp) => Effect.Effect<void>
  /** The session's setup secret, while it has not expired. */
  readonly findSetup: (session: SessionId) => Effect.Effect<Option.Option<string>>
  readonly removeSetup: (session: SessionId) => Effect.Effect<void>
  /** `secret_hash` is the hash of the cookie's value, never the value itself. */
  readonly insertPendingLogin: (input: {
    readonly user_id: UserId
    readonly secret_hash: string
    readonly expires_at: Timestamp
  }) => Effect.Effect<void>
  /** The waiting log-in with this secret's hash, expired or not. */
  readonly findPendingLogin: (secretHash: string) => Effect.Effect<Option.Option<PendingLogin>>
  readonly removePendingLogin: (id: string) => Effect.Effect<void>
  /** Remembers a browser for the user's app until `expires_at`; only the hash of its cookie's value is kept. */
  readonly rememberDevice: (user: UserId, secretHash: string, expires_at: Timestamp) => Effect.Effect<void>
  /** Whether one of these hashes names a browser remembered, and not yet expired, for the user's app. */
  readonly isRemembered: (user: UserId, secretHashes: ReadonlyArray<string>) => Effect.Effect<boolean>
  /** Drops expired setups, waiting log-ins and remembered browsers. */
  readonly removeExpired: Effect.Effect<void>
}>()("hedgerow/TwoFactorRepository") {}
