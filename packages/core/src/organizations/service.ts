import { Context, Effect, Layer } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access, requireAdmin, requireOwner } from "../auth/access.ts"
import { makeMoveToFirstOrganization } from "../members/current.ts"
import { MembershipRepository } from "../members/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { NotFound, orNotFound, type PermissionDenied, type ValidationError } from "../shared/errors.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import { restricts } from "../personal-api-keys/reach.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { makeFoundOrganization } from "./founding.ts"
import {
  byName,
  Level,
  type MembershipLevel,
  type Organization,
  OrganizationCreate,
  OrganizationUpdate,
  type OrganizationView,
  slugify
} from "./model.ts"
import { keyAfterRemoval } from "./removal.ts"
import { OrganizationRemovalRepository } from "./removal-repository.ts"
import { OrganizationRepository } from "./repository.ts"

const decodeCreate = decodeInput(OrganizationCreate)
const decodeFound = decodeBody(OrganizationCreate)
const decodeUpdate = decodeBody(OrganizationUpdate)

const toView = (organization: Organization, membership_level: MembershipLevel | null): OrganizationView => ({
  id: organization.id,
  name: organization.name,
  slug: organization.slug,
  created_at: organization.created_at,
  membership_level,
  enforce_2fa: organization.enforce_2fa
})

export class OrganizationService extends Context.Service<OrganizationService, {
  /** Operator: a bare organization, without members or projects. */
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<Organization, PermissionDenied | ValidationError>
  /**
   * `POST /api/organizations/`: the caller founds an organization, as in PostHog: they own it, and its
   * first project becomes their current one.
   */
  readonly found: (actor: Actor, body: Body) => Effect.Effect<OrganizationView, PermissionDenied | ValidationError | BodyError>
  /** `/api/organizations/`: the caller's organizations, ordered by name then id. */
  readonly listVisible: (actor: Actor, query: ListQuery) => Effect.Effect<Page<OrganizationView>, PermissionDenied>
  readonly retrieve: (actor: Actor, id: string) => Effect.Effect<OrganizationView, PermissionDenied | NotFound>
  /** A new name or two-factor rule; administrator level. */
  readonly update: (
    actor: Actor,
    id: string,
    body: Body
  ) => Effect.Effect<OrganizationView, PermissionDenied | NotFound | ValidationError | BodyError>
  /** Removes the organization and everything in it, in one transaction; owner level. */
  readonly destroy: (actor: Actor, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
}>()("hedgerow/OrganizationService") {
  static readonly layerNoDeps = Layer.effect(
    OrganizationService,
    Effect.gen(function*() {
      const access = yield* Access
      const organizations = yield* OrganizationRepository
      const memberships = yield* MembershipRepository
      const removal = yield* OrganizationRemovalRepository
      const transactions = yield* Transactions
      const foundOrganization = yield* makeFoundOrganization
      const moveToFirstOrganization = yield* makeMoveToFirstOrganization

      const create = Effect.fn("OrganizationService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeCreate(body)
        return yield* organizations.insert({ name: input.name, slug: slugify(input.name) })
      })

      const found = Effect.fn("OrganizationService.found")(function*(actor: Actor, body: Body) {
        // No organization exists yet to check a key's organization restriction against, as in PostHog.
        yield* access.organizationEndpoint(actor)
        yield* access.requireScope(actor, "organization:write")
        const { name } = yield* decodeFound(body)
        const owner = actor._tag === "User" ? actor.user.id : null
        // The new organization is outside a key restricted to organizations, so such a key does not move
        // the user's current organization there: their other sessions and keys keep working where they were.
        const becomesCurrent = actor._tag === "System" || !restricts(actor.key.scoped_organizations)
        const { organization } = yield* transactions.run(foundOrganization({ name, owner, becomesCurrent }))
        return toView(organization, owner === null ? null : Level.owner)
      })

      const listVisible = Effect.fn("OrganizationService.listVisible")(function*(actor: Actor, query: ListQuery) {
        yield* access.organizationEndpoint(actor)
        yield* access.requireScope(actor, "organization:read")
        const request = pageRequest(query)
        const ids = access.visibleOrganizations(actor)
        const found = yield* organizations.findManyById(ids)
        const sorted = [...found].sort(byName)
        const results = sorted.slice(request.offset, request.offset + request.limit).map((organization) =>
          toView(organization, actor._tag === "User" ? actor.memberships.get(organization.id) ?? null : null)
        )
        return { count: sorted.length, results, request }
      })

      const retrieve = Effect.fn("OrganizationService.retrieve")(function*(actor: Actor, id: string) {
        const { organization_id, level } = yield* access.organization(actor, id, "organization:read")
        const organization = yield* organizations.findById(organization_id).pipe(Effect.flatMap(orNotFound))
        return toView(organization, level)
      })

      const update = Effect.fn("OrganizationService.update")(function*(actor: Actor, id: string, body: Body) {
        const orgAccess = yield* access.organization(actor, id, "organization:write")
        yield* requireAdmin(orgAccess)
        const changes = yield* decodeUpdate(body)
        const organization = Object.keys(changes).length === 0
          ? yield* organizations.findById(orgAccess.organization_id)
          : yield* transactions.run(organizations.update(orgAccess.organization_id, changes))
        return toView(yield* orNotFound(organization), orgAccess.level)
      })

      /** The caller's level as stored now, under the organization's lock: it may have changed since the key was read. */
      const levelNow = (actor: Actor, organization: OrganizationId) =>
        actor._tag === "System"
          ? Effect.succeed(Level.owner)
          : memberships.find(organization, actor.user.id).pipe(
            Effect.flatMap(orNotFound),
            Effect.map((membership) => membership.level)
          )

      /** Keys restricted to the organization or its projects lose those restrictions, or are revoked. */
      const releaseKeys = (organization: OrganizationId, projects: ReadonlyArray<ProjectId>) =>
        Effect.gen(function*() {
          const removed = new Set(projects)
          const revoked = []
          for (const key of yield* removal.keysRestrictedTo(organization, projects)) {
            const after = keyAfterRemoval(key, organization, removed)
            if (after._tag === "Revoked") revoked.push(key.id)
            else if (after._tag === "Narrowed") yield* removal.restrictKey(after.key)
          }
          yield* removal.revokeKeys(revoked)
        })

      const destroy = Effect.fn("OrganizationService.destroy")(function*(actor: Actor, id: string) {
        const orgAccess = yield* access.organization(actor, id, "organization:write")
        yield* requireOwner(orgAccess)
        const { organization_id } = orgAccess
        yield* transactions.run(Effect.gen(function*() {
          if (!(yield* removal.lock(organization_id))) return yield* NotFound.default()
          yield* requireOwner({ level: yield* levelNow(actor, organization_id) })
          yield* releaseKeys(organization_id, yield* removal.projectsOf(organization_id))
          const moved = yield* removal.remove(organization_id)
          yield* Effect.forEach(moved, moveToFirstOrganization, { discard: true })
        }))
      })

      return OrganizationService.of({ create, found, listVisible, retrieve, update, destroy })
    })
  )
}
