import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { MembershipRepository } from "../members/repository.ts"
import { Choice, Email, Text } from "../shared/fields.ts"
import { NotFound, orNotFound, type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { isUuid, type RoleId } from "../shared/ids.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { UserRepository } from "../users/repository.ts"
import { AccessLevel, type RoleRecord } from "./model.ts"
import { RoleRepository } from "./repository.ts"

const decodeCreate = decodeInput(Schema.Struct({
  name: Text({ max: 200 }),
  feature_flags_access_level: Schema.optionalKey(Choice([AccessLevel.canOnlyView, AccessLevel.canAlwaysEdit]))
}))
const decodeAddMember = decodeInput(Schema.Struct({ email: Email }))

export class RoleService extends Context.Service<RoleService, {
  readonly create: (actor: Actor, organization: string, body: unknown) => Effect.Effect<RoleRecord, PermissionDenied | NotFound | ValidationError>
  readonly addMember: (actor: Actor, role: string, body: unknown) => Effect.Effect<void, PermissionDenied | NotFound | ValidationError>
}>()("hedgerow/RoleService") {
  static readonly layerNoDeps = Layer.effect(
    RoleService,
    Effect.gen(function*() {
      const roles = yield* RoleRepository
      const access = yield* Access
      const memberships = yield* MembershipRepository
      const users = yield* UserRepository
      const transactions = yield* Transactions

      const create = Effect.fn("RoleService.create")(function*(actor: Actor, organization: string, body: unknown) {
        yield* requireSystem(actor)
        const { organization_id } = yield* access.organization(actor, organization, "organization:write")
        const input = yield* decodeCreate(body)
        return yield* roles.insert({
          organization_id,
          name: input.name,
          feature_flags_access_level: input.feature_flags_access_level ?? AccessLevel.canAlwaysEdit,
          created_by_id: null
        }).pipe(
          Effect.catchTag("RoleNameTaken", () =>
            Effect.fail(ValidationError.field("name", "There is already a role with this name.", "unique")))
        )
      })

      const addMember = Effect.fn("RoleService.addMember")(function*(actor: Actor, role: string, body: unknown) {
        yield* requireSystem(actor)
        if (!isUuid(role)) return yield* NotFound.default()
        const found = yield* roles.findById(role as RoleId).pipe(Effect.flatMap(orNotFound))
        const input = yield* decodeAddMember(body)
        const user = yield* users.findByEmail(input.email).pipe(Effect.map(Option.getOrUndefined))
        const notMember = ValidationError.field("email", "This user is not a member of the role's organization.", "does_not_exist")
        if (user === undefined) return yield* notMember
        // Roles hold members of their organization only. Removal takes the organization's lock and clears
        // the user's roles, so the check and the insert hold it too: a removal cannot fall in between.
        yield* transactions.run(Effect.gen(function*() {
          yield* memberships.lockOrganization(found.organization_id)
          if (Option.isNone(yield* memberships.find(found.organization_id, user.id))) return yield* notMember
          yield* roles.addMember(found.id, user.id).pipe(
            Effect.catchTag("AlreadyRoleMember", () =>
              Effect.fail(ValidationError.field("email", "This user is already a member of the role.", "unique")))
          )
        }))
      })

      return RoleService.of({ create, addMember })
    })
  )
}
