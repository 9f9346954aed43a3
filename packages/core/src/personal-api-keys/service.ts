import { Context, Effect, Layer, Schema } from "effect"
import type { Actor, UserActor } from "../auth/actor.ts"
import { Email, NonEmptyList, rule, SerialReference, Text } from "../shared/fields.ts"
import { PermissionDenied, ValidationError } from "../shared/errors.ts"
import { type OrganizationId, isUuid, type ProjectId } from "../shared/ids.ts"
import { isScopeGrant } from "../shared/scope.ts"
import { maskOf, newPersonalApiKey, secureValueOf } from "../shared/secrets.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { userByEmail } from "../users/by-email.ts"
import { UserRepository } from "../users/repository.ts"
import { type PersonalApiKeyView, toPersonalApiKeyView } from "./model.ts"
import { PersonalApiKeyRepository } from "./repository.ts"

/** PostHog's per-user key limit. */
export const MAX_KEYS_PER_USER = 10

const scopeList = Schema.Array(Schema.String).check(
  rule<ReadonlyArray<string>>("invalid_input", (scopes) =>
    scopes.length === 0 ? "At least one scope is required." : undefined),
  rule<ReadonlyArray<string>>("invalid_input", (scopes) => {
    const bad = scopes.find((s) => !isScopeGrant(s))
    return bad === undefined ? undefined : `Invalid scope: ${bad}`
  })
)

const decodeCreate = decodeInput(Schema.Struct({
  email: Email,
  label: Schema.optionalKey(Text({ max: 40, allowBlank: true })),
  scopes: scopeList,
  // null leaves a key unrestricted; a list given must name something, so a typo cannot widen a key.
  scoped_organizations: Schema.optionalKey(Schema.NullOr(NonEmptyList(
    Schema.String.check(rule<string>("invalid_input", (s) => (isUuid(s) ? undefined : "Must be a valid UUID.")))
  ))),
  scoped_teams: Schema.optionalKey(Schema.NullOr(NonEmptyList(SerialReference)))
}))

export interface CreatedKey extends PersonalApiKeyView {
  /** The only time the key itself is shown. */
  readonly personal_api_key: string
}

export class PersonalApiKeyService extends Context.Service<PersonalApiKeyService, {
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<CreatedKey, PermissionDenied | ValidationError>
  readonly current: (actor: UserActor) => PersonalApiKeyView
}>()("hedgerow/PersonalApiKeyService") {
  static readonly layerNoDeps = Layer.effect(
    PersonalApiKeyService,
    Effect.gen(function*() {
      const keys = yield* PersonalApiKeyRepository
      const users = yield* UserRepository
      const transactions = yield* Transactions

      const create = Effect.fn("PersonalApiKeyService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeCreate(body)
        const user = yield* userByEmail(input.email).pipe(Effect.provideService(UserRepository, users))
        const plain = newPersonalApiKey()
        const key = yield* transactions.run(Effect.gen(function*() {
          yield* users.lock(user.id)
          if ((yield* keys.countForUser(user.id)) >= MAX_KEYS_PER_USER) {
            return yield* ValidationError.field(
              null,
              "You can only have 10 personal API keys. Remove an existing key before creating a new one."
            )
          }
          return yield* keys.insert({
            user_id: user.id,
            label: input.label ?? "",
            secure_value: secureValueOf(plain),
            mask_value: maskOf(plain),
            scopes: input.scopes,
            scoped_organizations: (input.scoped_organizations ?? null) as ReadonlyArray<OrganizationId> | null,
            scoped_teams: (input.scoped_teams ?? null) as ReadonlyArray<ProjectId> | null
          })
        }))
        return { ...toPersonalApiKeyView(key), personal_api_key: plain }
      })

      return PersonalApiKeyService.of({ create, current: (actor) => toPersonalApiKeyView(actor.key) })
    })
  )
}
