import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { MembershipRepository } from "../members/repository.ts"
import { mayAdminister } from "../organizations/model.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { Email } from "../shared/fields.ts"
import { NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, isUuid, type OrganizationId, type RoleId, type RoleMembershipId, type UserUuid } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { UserRepository } from "../users/repository.ts"
import { AccessLevel, type Role, RoleCreate, type RoleMembership, RoleMembershipCreate, type RoleRecord, RoleUpdate } from "./model.ts"
import { RoleRepository } from "./repository.ts"

const decodeCreate = decodeBody(RoleCreate)
const decodeUpdate = decodeBody(RoleUpdate)
const decodeMembership = decodeBody(RoleMembershipCreate)
const decodeAddMember = decodeInput(Schema.Struct({ email: Email }))

const nameTaken = () => ValidationError.field("name", "There is already a role with this name.", "unique")
/** Every member may read roles; only administrators may change them. */
const notAdmin = () => new PermissionDenied({ detail: "You need to have admin level or higher." })
/** PostHog answers these for the body as a whole, so they name no field. */
const userMissing = () => new ValidationError({ code: "invalid", detail: "User does not exist.", attr: null })
const alreadyInRole = () => new ValidationError({ code: "invalid", detail: "User is already part of the role.", attr: null })

export class RoleService extends Context.Service<RoleService, {
  /** `GET …/roles/`: the organization's roles (scope organization:read). */
  readonly list: (actor: Actor, organization: string, query: ListQuery) => Effect.Effect<Page<Role>, PermissionDenied | NotFound>
  /**
   * `POST …/roles/` (administrator level, scope organization:write); the operator passes a body in
   * hand with `bodyOf`. The caller is recorded as the creator.
   */
  readonly create: (
    actor: Actor,
    organization: string,
    body: Body
  ) => Effect.Effect<Role, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly retrieve: (actor: Actor, organization: string, id: string) => Effect.Effect<Role, PermissionDenied | NotFound>
  readonly update: (
    actor: Actor,
    organization: string,
    id: string,
    body: Body
  ) => Effect.Effect<Role, PermissionDenied | NotFound | ValidationError | BodyError>
  /** Deletes the role, its memberships and every flag's grant to it, in one transaction. */
  readonly destroy: (actor: Actor, organization: string, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
  readonly memberships: (
    actor: Actor,
    organization: string,
    role: string,
    query: ListQuery
  ) => Effect.Effect<Page<RoleMembership>, PermissionDenied | NotFound>
  readonly addMembership: (
    actor: Actor,
    organization: string,
    role: string,
    body: Body
  ) => Effect.Effect<RoleMembership, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly removeMembership: (
    actor: Actor,
    organization: string,
    role: string,
    id: string
  ) => Effect.Effect<void, PermissionDenied | NotFound>
  /** Operator: adds a member of the role's organization, named by e-mail, to a role named by id alone. */
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

      const readable = (actor: Actor, organization: string) => access.organization(actor, organization, "organization:read")

      // PostHog checks the level before looking the role up, so a member learns nothing about ids.
      const writable = (actor: Actor, organization: string) =>
        access.organization(actor, organization, "organization:write").pipe(
          Effect.tap(({ level }) => (mayAdminister(level) ? Effect.void : Effect.fail(notAdmin())))
        )

      /** A role of this organization; unknown, malformed and other organizations' ids are all 404. */
      const find = (organization_id: OrganizationId, id: string) => {
        const uuid = canonicalUuid(id)
        return uuid === undefined
          ? Effect.fail(NotFound.default())
          : roles.findById(uuid as RoleId).pipe(
            Effect.flatMap(orNotFound),
            Effect.filterOrFail((role) => role.organization_id === organization_id, () => NotFound.default())
          )
      }

      const view = (role: RoleRecord) =>
        roles.views([role.id]).pipe(Effect.flatMap((found) => orNotFound(Option.fromNullishOr(found[0]))))

      const list = Effect.fn("RoleService.list")(function*(actor: Actor, organization: string, query: ListQuery) {
        const { organization_id } = yield* readable(actor, organization)
        const page = yield* roles.list(organization_id, pageRequest(query))
        return { ...page, results: yield* roles.views(page.results.map((role) => role.id)) }
      })

      const create = Effect.fn("RoleService.create")(function*(actor: Actor, organization: string, body: Body) {
        const { organization_id } = yield* writable(actor, organization)
        const input = yield* decodeCreate(body)
        const role = yield* transactions.run(roles.insert({
          organization_id,
          name: input.name,
          feature_flags_access_level: input.feature_flags_access_level ?? AccessLevel.canAlwaysEdit,
          created_by_id: actor._tag === "User" ? actor.user.id : null
        })).pipe(Effect.catchTag("RoleNameTaken", () => Effect.fail(nameTaken())))
        return yield* view(role)
      })

      const retrieve = Effect.fn("RoleService.retrieve")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* readable(actor, organization)
        return yield* view(yield* find(organization_id, id))
      })

      const update = Effect.fn("RoleService.update")(function*(actor: Actor, organization: string, id: string, body: Body) {
        const { organization_id } = yield* writable(actor, organization)
        const role = yield* find(organization_id, id)
        const change = yield* decodeUpdate(body)
        if (change.name === undefined && change.feature_flags_access_level === undefined) return yield* view(role)
        const updated = yield* transactions.run(roles.update(role.id, change)).pipe(
          Effect.catchTag("RoleNameTaken", () => Effect.fail(nameTaken())),
          Effect.flatMap(orNotFound)
        )
        return yield* view(updated)
      })

      const destroy = Effect.fn("RoleService.destroy")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* writable(actor, organization)
        const role = yield* find(organization_id, id)
        const deleted = yield* transactions.run(Effect.gen(function*() {
          // Under the lock members join roles by, so none joins the role as it goes.
          yield* memberships.lockOrganization(role.organization_id)
          return yield* roles.delete(role.id)
        }))
        if (!deleted) return yield* NotFound.default()
      })

      const listMemberships = Effect.fn("RoleService.memberships")(function*(
        actor: Actor,
        organization: string,
        id: string,
        query: ListQuery
      ) {
        const { organization_id } = yield* readable(actor, organization)
        const role = yield* find(organization_id, id)
        return yield* roles.memberships(role.id, pageRequest(query))
      })

      /**
       * Roles hold members of their organization only. Removal takes the organization's lock and clears the
       * user's roles, and so does a role's deletion, so the checks and the insert hold it too: neither can
       * fall in between.
       */
      const join = (role: RoleRecord, member: { readonly email: string } | { readonly uuid: UserUuid }, missing: () => ValidationError) =>
        transactions.run(Effect.gen(function*() {
          yield* memberships.lockOrganization(role.organization_id)
          if (Option.isNone(yield* roles.findById(role.id))) return yield* NotFound.default()
          const user = "email" in member
            ? yield* users.findByEmail(member.email)
            : Option.map(yield* memberships.findMember(role.organization_id, { uuid: member.uuid }), (found) => found.user)
          if (Option.isNone(user) || Option.isNone(yield* memberships.find(role.organization_id, user.value.id))) return yield* missing()
          return yield* roles.addMember(role.id, user.value.id)
        }))

      const addMembership = Effect.fn("RoleService.addMembership")(function*(
        actor: Actor,
        organization: string,
        id: string,
        body: Body
      ) {
        const { organization_id } = yield* writable(actor, organization)
        const role = yield* find(organization_id, id)
        const { user_uuid } = yield* decodeMembership(body)
        const added = yield* join(role, { uuid: user_uuid as UserUuid }, userMissing).pipe(
          Effect.catchTag("AlreadyRoleMember", () => Effect.fail(alreadyInRole()))
        )
        const [membership] = yield* roles.membershipViews([added])
        return yield* orNotFound(Option.fromNullishOr(membership))
      })

      const removeMembership = Effect.fn("RoleService.removeMembership")(function*(
        actor: Actor,
        organization: string,
        id: string,
        membership: string
      ) {
        const { organization_id } = yield* writable(actor, organization)
        const role = yield* find(organization_id, id)
        const uuid = canonicalUuid(membership)
        if (uuid === undefined) return yield* NotFound.default()
        if (!(yield* transactions.run(roles.removeMembership(role.id, uuid as RoleMembershipId)))) return yield* NotFound.default()
      })

      const addMember = Effect.fn("RoleService.addMember")(function*(actor: Actor, id: string, body: unknown) {
        yield* requireSystem(actor)
        if (!isUuid(id)) return yield* NotFound.default()
        const role = yield* roles.findById(canonicalUuid(id) as RoleId).pipe(Effect.flatMap(orNotFound))
        const input = yield* decodeAddMember(body)
        const notMember = () => ValidationError.field("email", "This user is not a member of the role's organization.", "does_not_exist")
        yield* join(role, { email: input.email }, notMember).pipe(
          Effect.catchTag("AlreadyRoleMember", () =>
            Effect.fail(ValidationError.field("email", "This user is already a member of the role.", "unique")))
        )
      })

      return RoleService.of({
        list,
        create,
        retrieve,
        update,
        destroy,
        memberships: listMemberships,
        addMembership,
        removeMembership,
        addMember
      })
    })
  )
}
