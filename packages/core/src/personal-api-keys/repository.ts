import { Context, type Effect, type Option } from "effect"
import type { KeyHolder, NewPersonalApiKey, PersonalApiKey } from "./model.ts"
import type { PersonalApiKeyId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"

export class PersonalApiKeyRepository extends Context.Service<PersonalApiKeyRepository, {
  readonly insert: (input: NewPersonalApiKey) => Effect.Effect<PersonalApiKey>
  readonly findHolder: (secureValue: string) => Effect.Effect<Option.Option<KeyHolder>>
  readonly countForUser: (user: UserId) => Effect.Effect<number>
  readonly touch: (id: PersonalApiKeyId, at: Timestamp) => Effect.Effect<void>
}>()("hedgerow/PersonalApiKeyRepository") {}
