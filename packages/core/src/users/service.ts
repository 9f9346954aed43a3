import { Context, Effect, Layer, Option } from "effect"
import type { Actor, UserActor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { parseSerial, type ProjectId } from "../shared/ids.ts"
import { byName } from "../organizations/model.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { toProjectSummary } from "../projects/views.ts"
import { PermissionDenied, ValidationError } from "../shared/errors.ts"
import { requireSystem } from "../shared/system.ts"
import { decodeInput } from "../shared/validation.ts"
import { type Me, toUserSummary, type User, UserCreate } from "./model.ts"
import { UserRepository } from "./repository.ts"

const decodeCreate = decodeInput(UserCreate)

export class UserService extends Context.Service<UserService, {
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<User, PermissionDenied | ValidationError>
  /** Any valid key may ask who it belongs to: it is the key holder's own data. */
  readonly me: (actor: UserActor) => Effect.Effect<Me>
}>()("hedgerow/UserService") {
  static readonly layerNoDeps = Layer.effect(
    UserService,
    Effect.gen(function*() {
      const users = yield* UserRepository
      const organizations = yield* OrganizationRepository
      const projects = yield* ProjectRepository
      const access = yield* Access

      const create = Effect.fn("UserService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeCreate(body)
        return yield* users.insert({
          email: input.email,
          first_name: input.first_name ?? "",
          last_name: input.last_name ?? ""
        }).pipe(
          Effect.catchTag("EmailTaken", () =>
            Effect.fail(new ValidationError({ code: "unique", detail: "A user with this email already exists.", attr: "email" })))
        )
      })

      const me = Effect.fn("UserService.me")(function*(actor: UserActor) {
        const { user } = actor
        const mine = yield* organizations.findManyById([...actor.memberships.keys()])
        const briefs = [...mine]
          .sort(byName)
          .map((o) => ({ id: o.id, name: o.name, slug: o.slug, membership_level: actor.memberships.get(o.id) ?? null }))
        const current = briefs.find((o) => o.id === user.current_organization_id) ?? briefs[0] ?? null
        const currentId = parseSerial(yield* access.currentProject(actor))
        const project = currentId === undefined
          ? Option.none()
          : (yield* projects.findById(currentId as ProjectId)).pipe(
            Option.filter((p) => actor.memberships.has(p.organization_id))
          )
        return {
          ...toUserSummary(user),
          organization: current,
          organizations: briefs,
          team: Option.match(project, { onNone: () => null, onSome: toProjectSummary })
        }
      })

      return UserService.of({ create, me })
    })
  )
}
