import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { Level, MembershipLevel } from "../organizations/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { failIfAny, NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { Email } from "../shared/fields.ts"
import { canonicalUuid, type OrganizationId, type UserUuid } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { requireSystem } from "../shared/system.ts"
import { holdsNul } from "../shared/text.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { userByEmail } from "../users/by-email.ts"
import { UserRepository } from "../users/repository.ts"
import { memberOrderOf, MemberUpdate } from "./input.ts"
import type { Member, MemberRecord, Membership } from "./model.ts"
import { MembershipRepository } from "./repository.ts"
import { lastOwnerDemoted, lastOwnerLeaving, levelRule, othersRule, type Seat } from "./rules.ts"
import { makeMoveToFirstOrganization } from "./current.ts"
import { membersTurn } from "./turn.ts"
import { toMember } from "./views.ts"

const decodeAdd = decodeInput(Schema.Struct({ email: Email, level: MembershipLevel }))
const decodeUpdate = decodeBody(MemberUpdate)

/** `members/{user__uuid}/`: the user's uuid, or `@me` for the caller. */
export const ME = "@me"

export interface MemberListQuery extends ListQuery {
  readonly email?: string | undefined
  readonly order?: string | undefined
}

export class MemberService extends Context.Service<MemberService, {
  /** Operator: puts an existing user into an organization at a level. */
  readonly add: (actor: Actor, organization: string, body: unknown) => Effect.Effect<Membership, PermissionDenied | NotFound | ValidationError>
  readonly list: (actor: Actor, organization: string, query: MemberListQuery) => Effect.Effect<Page<Member>, PermissionDenied | NotFound>
  readonly update: (
    actor: Actor,
    organization: string,
    user: string,
    body: Body
  ) => Effect.Effect<Member, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly remove: (actor: Actor, organization: string, user: string) => Effect.Effect<void, PermissionDenied | NotFound | ValidationError>
}>()("hedgerow/MemberService") {
  static readonly layerNoDeps = Layer.effect(
    MemberService,
    Effect.gen(function*() {
      const memberships = yield* MembershipRepository
      const access = yield* Access
      const users = yield* UserRepository
      const projects = yield* ProjectRepository
      const transactions = yield* Transactions
      const moveToFirstOrganization = yield* makeMoveToFirstOrganization

      const add = Effect.fn("MemberService.add")(function*(actor: Actor, organization: string, body: unknown) {
        yield* requireSystem(actor)
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:write")
        const input = yield* decodeAdd(body)
        const user = yield* userByEmail(input.email).pipe(Effect.provideService(UserRepository, users))
        return yield* transactions.run(Effect.gen(function*() {
          // After an invite being written to this address, not beside it (see membersTurn).
          yield* transactions.serialize(membersTurn(organization_id))
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

      const list = Effect.fn("MemberService.list")(function*(actor: Actor, organization: string, query: MemberListQuery) {
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:read")
        const request = pageRequest(query)
        const email = query.email ?? null
        // PostgreSQL text cannot hold NUL, so no stored address has one: such a filter matches nobody.
        if (email !== null && holdsNul(email)) return { count: 0, results: [], request }
        const page = yield* memberships.list({ organization_id, email }, memberOrderOf(query.order), request)
        return { ...page, results: page.results.map(toMember) }
      })

      /** The member a path names; unknown, malformed and other organizations' users are all 404. */
      const target = (actor: Actor, organization_id: OrganizationId, ref: string) => {
        if (ref === ME) {
          return actor._tag === "User"
            ? memberships.findMember(organization_id, { id: actor.user.id }).pipe(Effect.flatMap(orNotFound))
            : Effect.fail(NotFound.default())
        }
        const uuid = canonicalUuid(ref)
        return uuid === undefined
          ? Effect.fail(NotFound.default())
          : memberships.findMember(organization_id, { uuid: uuid as UserUuid }).pipe(Effect.flatMap(orNotFound))
      }

      /** The caller's seat as stored now, not as the key was read: a level may have changed meanwhile. */
      const seat = (actor: Actor, organization_id: OrganizationId): Effect.Effect<Seat, NotFound> =>
        actor._tag === "System"
          ? Effect.succeed({ membership_id: null, level: Level.owner })
          : memberships.find(organization_id, actor.user.id).pipe(
            Effect.flatMap(orNotFound),
            Effect.map((membership) => ({ membership_id: membership.id, level: membership.level }))
          )

      const seats = (actor: Actor, organization_id: OrganizationId, ref: string) =>
        Effect.all({ caller: seat(actor, organization_id), member: target(actor, organization_id, ref) })

      const update = Effect.fn("MemberService.update")(function*(actor: Actor, organization: string, ref: string, body: Body) {
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:write")
        // PostHog's order: object permission, then the body, then the level rules.
        const before = yield* seats(actor, organization_id, ref)
        yield* failIfAny(othersRule(before.caller, before.member.membership))
        const { level } = yield* decodeUpdate(body)
        if (level === undefined) return toMember(before.member)
        yield* failIfAny(levelRule(before.caller, before.member.membership, level))
        // The body is read; now decide again under the lock, on rows no one else can change meanwhile.
        return yield* transactions.run(Effect.gen(function*() {
          yield* memberships.lockOrganization(organization_id)
          const { caller, member } = yield* seats(actor, organization_id, ref)
          yield* failIfAny(othersRule(caller, member.membership))
          yield* failIfAny(levelRule(caller, member.membership, level))
          if (member.membership.level === Level.owner && level !== Level.owner && (yield* memberships.countOwners(organization_id)) <= 1) {
            return yield* lastOwnerDemoted()
          }
          const membership = yield* memberships.setLevel(member.membership.id, level)
          return toMember({ membership, user: member.user })
        }))
      })

      /** A removed member's current organization moves to another of theirs. */
      const repointCurrent = Effect.fn("MemberService.repointCurrent")(function*(record: MemberRecord) {
        const { user, membership } = record
        if (user.current_organization_id === membership.organization_id) {
          yield* moveToFirstOrganization(user.id)
        } else if (user.current_project_id !== null) {
          const project = yield* projects.findById(user.current_project_id)
          if (Option.isSome(project) && project.value.organization_id === membership.organization_id) {
            yield* users.setCurrent(user.id, { organization_id: user.current_organization_id, project_id: null })
          }
        }
      })

      const remove = Effect.fn("MemberService.remove")(function*(actor: Actor, organization: string, ref: string) {
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:write")
        const before = yield* seats(actor, organization_id, ref)
        yield* failIfAny(othersRule(before.caller, before.member.membership))
        yield* transactions.run(Effect.gen(function*() {
          yield* memberships.lockOrganization(organization_id)
          const { caller, member } = yield* seats(actor, organization_id, ref)
          yield* failIfAny(othersRule(caller, member.membership))
          if (member.membership.level === Level.owner && (yield* memberships.countOwners(organization_id)) <= 1) {
            return yield* lastOwnerLeaving()
          }
          yield* memberships.remove(member.membership)
          yield* repointCurrent(member)
        }))
      })

      return MemberService.of({ add, list, update, remove })
    })
  )
}
