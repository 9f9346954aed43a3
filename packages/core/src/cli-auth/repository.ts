import { Context, type Effect, type Option } from "effect"
import type { ProjectId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { CliAuthRequest } from "./model.ts"

/** Device authorizations of the CLI's browser log-in, found by the hash of one of their codes. */
export class CliAuthRepository extends Context.Service<CliAuthRepository, {
  /** False, writing nothing, when a live authorization already has this user code's hash. */
  readonly insert: (input: {
    readonly device_code_hash: string
    readonly user_code_hash: string
    readonly expires_at: Timestamp
  }) => Effect.Effect<boolean>
  /** Locked until the transaction ends, so one approval or one key comes of it. */
  readonly findByUserCode: (hash: string) => Effect.Effect<Option.Option<CliAuthRequest>>
  /** Locked until the transaction ends. */
  readonly findByDeviceCode: (hash: string) => Effect.Effect<Option.Option<CliAuthRequest>>
  readonly approve: (id: string, approval: {
    readonly user: UserId
    readonly project: ProjectId
    readonly label: string
  }) => Effect.Effect<void>
  readonly notePoll: (id: string, at: Timestamp) => Effect.Effect<void>
  readonly remove: (id: string) => Effect.Effect<void>
  /** Drops authorizations past their expiry, which no one can use any more. */
  readonly removeExpired: (now: Timestamp) => Effect.Effect<void>
}>()("hedgerow/CliAuthRepository") {}
