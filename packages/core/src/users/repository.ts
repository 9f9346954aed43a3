import { Context, type Effect, type Option } from "effect"
import type { User } from "./model.ts"
import type { OrganizationId, ProjectId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"

export class EmailTaken {
  readonly _tag = "EmailTaken"
}

export class UserRepository extends Context.Service<UserRepository, {
  readonly insert: (input: {
    readonly email: string
    readonly first_name: string
    readonly last_name: string
    /** The stored hash of the user's password (see passwordHasher); absent or null: none yet. */
    readonly password_hash?: string | null
    /**
     * Whether whoever makes the account vouches for the address: the operator and an identity provider
     * do; someone accepting an invite does not (its inviter may be the one accepting it). Absent: not.
     */
    readonly email_verified?: boolean
  }) => Effect.Effect<User, EmailTaken>
  readonly findById: (id: UserId) => Effect.Effect<Option.Option<User>>
  readonly findManyById: (ids: ReadonlyArray<UserId>) => Effect.Effect<ReadonlyArray<User>>
  /** E-mail addresses compare case-insensitively. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>
  /** The user with this e-mail (case-insensitively) and their password's hash (null when they have none). */
  readonly findCredentials: (email: string) => Effect.Effect<Option.Option<{ readonly user: User; readonly password_hash: string | null }>>
  readonly passwordHashOf: (id: UserId) => Effect.Effect<string | null>
  readonly setPasswordHash: (id: UserId, hash: string) => Effect.Effect<void>
  /** Sets `to` only while the stored hash is still `from`: a password changed meanwhile stays changed. */
  readonly replacePasswordHash: (id: UserId, from: string, to: string) => Effect.Effect<void>
  /** Marks the user's address proven and clears their password: whoever set it never proved the address. */
  readonly proveEmail: (id: UserId) => Effect.Effect<void>
  /** The user's `last_login`, written at each log-in. */
  readonly recordLogin: (id: UserId, at: Timestamp) => Effect.Effect<void>
  /** Holds the user's row until the transaction ends, so per-user limits are counted one writer at a time. */
  readonly lock: (id: UserId) => Effect.Effect<void>
  readonly setCurrent: (
    id: UserId,
    current: { readonly organization_id: OrganizationId | null; readonly project_id: ProjectId | null }
  ) => Effect.Effect<void>
}>()("hedgerow/UserRepository") {}
