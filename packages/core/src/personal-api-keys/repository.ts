import { Context, type Effect, type Option } from "effect"
import type { KeyHolder, NewPersonalApiKey, PersonalApiKey, PersonalApiKeyChanges } from "./model.ts"
import type { PersonalApiKeyId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"

export class PersonalApiKeyRepository extends Context.Service<PersonalApiKeyRepository, {
  readonly insert: (input: NewPersonalApiKey) => Effect.Effect<PersonalApiKey>
  readonly findHolder: (secureValue: string) => Effect.Effect<Option.Option<KeyHolder>>
  readonly countForUser: (user: UserId) => Effect.Effect<number>
  /** The user's keys, newest first. */
  readonly listForUser: (user: UserId) => Effect.Effect<ReadonlyArray<PersonalApiKey>>
  /** A key of this user; `forUpdate` locks its row until the transaction ends. */
  readonly findForUser: (
    user: UserId,
    id: PersonalApiKeyId,
    options?: { readonly forUpdate?: boolean }
  ) => Effect.Effect<Option.Option<PersonalApiKey>>
  readonly update: (id: PersonalApiKeyId, changes: PersonalApiKeyChanges) => Effect.Effect<PersonalApiKey>
  /** A new secret for the key: its hash and mask replaced, `last_rolled_at` now. */
  readonly roll: (id: PersonalApiKeyId, secret: { readonly secure_value: string; readonly mask_value: string }) => Effect.Effect<PersonalApiKey>
  /** False when the user had no such key. */
  readonly delete: (user: UserId, id: PersonalApiKeyId) => Effect.Effect<boolean>
  /** Revokes every key of the user. */
  readonly deleteAllForUser: (user: UserId) => Effect.Effect<void>
  readonly touch: (id: PersonalApiKeyId, at: Timestamp) => Effect.Effect<void>
}>()("hedgerow/PersonalApiKeyRepository") {}
