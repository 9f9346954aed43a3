import { Context, Effect, Layer, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { MembershipLevel } from "../organizations/model.ts"
import { Access } from "../auth/access.ts"
import { Email } from "../shared/fields.ts"
import { NotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { userByEmail } from "../users/by-email.ts"
import { UserRepository } from "../users/repository.ts"
import type { Membership } from "./model.ts"
import { MembershipRepository } from "./repository.ts"

const decodeAdd = decodeInput(Schema.Struct({ email: Email, level: MembershipLevel }))

export class MemberService extends Context.Service<MemberService, {
  /** Operator: puts an existing user into an organization at a level. */
  readonly add: (actor: Actor, organization: string, body: unknown) => Effect.Effect<Membership, PermissionDenied | NotFound | ValidationError>
}>()("hedgerow/MemberService") {
  static readonly layer = Layer.effect(
    MemberService,
    Effect.gen(function*() {
      const memberships = yield* MembershipRepository
      const access = yield* Access
      const users = yield* UserRepository
      const transactions = yield* Transactions

      const add = Effect.fn("MemberService.add")(function*(actor: Actor, organization: string, body: unknown) {
        yield* requireSystem(actor)
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:write")
        const input = yield* decodeAdd(body)
        const user = yield* userByEmail(input.email).pipe(Effect.provideService(UserRepository, users))
        return yield* transactions.run(Effect.gen(function*() {
          const membership = yield* memberships.insert({ organization_id, user_id: user.id, level: input.level }).pipe(
            Effect.catchTag("AlreadyMember", () =>
              Effect.fail(ValidationError.field("email", "A user with this email address already belongs to the organization.", "unique")))
          )
          // A user's first organization becomes their current one, so `@current` means something.
          if (user.current_organization_id === null) {
            yield* users.setCurrent(user.id, { organization_id, project_id: null })
          }
          return membership
        }))
      })

      return MemberService.of({ add })
    })
  )
}
