import { Context, Effect, Layer, Option } from "effect"
import type { Actor, UserActor } from "./actor.ts"
import { type MembershipLevel, Level, mayAdminister } from "../organizations/model.ts"
import { MembershipRepository } from "../members/repository.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import type { Project } from "../projects/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { NotFound, orNotFound, PermissionDenied } from "../shared/errors.ts"
import { canonicalUuid, type OrganizationId, parseSerial, type ProjectId } from "../shared/ids.ts"
import { grants, type Scope } from "../shared/scope.ts"
import { Freshness } from "../read-model/freshness.ts"
import { READS } from "../read-model/watched.ts"
import { memoized } from "../read-model/memoized.ts"

/** `@current` stands for the caller's current organization or project, as in PostHog. */
export const CURRENT = "@current"

export interface OrganizationAccess {
  readonly organization_id: OrganizationId
  /** The caller's level there; owner for the system actor. */
  readonly level: MembershipLevel
}

export interface ProjectAccess extends OrganizationAccess {
  readonly project: Project
}

/**
 * Writes that change how the organization works (its domains, its projects) need administrator level or
 * higher.
 */
export const requireAdmin = ({ level }: OrganizationAccess): Effect.Effect<void, PermissionDenied> =>
  mayAdminister(level) ? Effect.void : Effect.fail(insufficientLevel())

/** Only an owner may delete the organization itself. */
export const requireOwner = ({ level }: Pick<OrganizationAccess, "level">): Effect.Effect<void, PermissionDenied> =>
  level < Level.owner ? Effect.fail(insufficientLevel()) : Effect.void

const insufficientLevel = () => new PermissionDenied({ detail: "Your organization access level is insufficient." })

const orgRestricted = (id: string) =>
  new PermissionDenied({ detail: `API key does not have access to the requested organization: ID ${id}.` })
const projectRestricted = (id: string | number) =>
  new PermissionDenied({ detail: `API key does not have access to the requested project: ID ${id}.` })

/**
 * Who may touch what: key restrictions, then scope, then tenancy, in PostHog's order. Tenancy failures
 * are always 404 so that other tenants' ids cannot be probed; restriction checks that would need a
 * foreign object's details run only after tenancy.
 */
export class Access extends Context.Service<Access, {
  readonly requireScope: (actor: Actor, scope: Scope) => Effect.Effect<void, PermissionDenied>
  readonly organization: (
    actor: Actor,
    ref: string,
    scope: Scope
  ) => Effect.Effect<OrganizationAccess, PermissionDenied | NotFound>
  /** Several scopes, each required, checked in order as PostHog checks them. */
  readonly project: (actor: Actor, ref: string, scope: Scope | ReadonlyArray<Scope>) => Effect.Effect<ProjectAccess, PermissionDenied | NotFound>
  /** Project visible under a given organization (`/api/organizations/{org}/projects/{id}/`). */
  readonly projectIn: (actor: Actor, access: OrganizationAccess, ref: string) => Effect.Effect<Project, NotFound>
  /** Organization-level endpoints refuse keys restricted to projects, as PostHog does. */
  readonly organizationEndpoint: (actor: Actor) => Effect.Effect<void, PermissionDenied>
  /** Organizations the caller may list, after the key's restrictions. */
  readonly visibleOrganizations: (actor: Actor) => ReadonlyArray<OrganizationId>
  /** The id `@current` names for a project, or "" when the caller has none. */
  readonly currentProject: (actor: Actor) => Effect.Effect<string>
}>()("hedgerow/Access") {
  static readonly layerNoDeps = Layer.effect(
    Access,
    Effect.gen(function*() {
      const organizations = yield* OrganizationRepository
      const projects = yield* ProjectRepository
      const members = yield* MembershipRepository

      const requireScope = (actor: Actor, scope: Scope) =>
        actor._tag === "System" || grants(actor.key.scopes, scope)
          ? Effect.void
          : Effect.fail(PermissionDenied.missingScope(scope))

      // The caller's memberships may be served from memory (see Authentication), which another process's
      // change reaches only when the change feed brings it. A membership held there is served; one missing
      // is asked of the store before the caller is refused, so an organization created or joined through
      // another process can be used at once. A removal waits for the feed.
      const heldLevel = (actor: Actor, id: OrganizationId): MembershipLevel | undefined =>
        actor._tag === "System" ? Level.owner : actor.memberships.get(id)
      const storedLevel = (actor: UserActor, id: OrganizationId): Effect.Effect<MembershipLevel | undefined> =>
        Effect.map(members.find(id, actor.user.id), (found) => Option.getOrUndefined(found)?.level)

      // A user's membership proves the organization exists (memberships cascade with it), so the hot path
      // needs no extra query; only the system actor has to look.
      const findOrganization = (actor: Actor, id: OrganizationId): Effect.Effect<OrganizationAccess, NotFound> => {
        if (actor._tag === "System") {
          return organizations.findById(id).pipe(Effect.flatMap(orNotFound), Effect.as({ organization_id: id, level: Level.owner }))
        }
        const held = heldLevel(actor, id)
        if (held !== undefined) return Effect.succeed({ organization_id: id, level: held })
        return Effect.flatMap(storedLevel(actor, id), (level) =>
          level === undefined ? Effect.fail(NotFound.default()) : Effect.succeed({ organization_id: id, level }))
      }

      const organizationEndpoint = (actor: Actor) =>
        actor._tag === "User" && actor.key.scoped_teams !== null && actor.key.scoped_teams.length > 0
          ? Effect.fail(new PermissionDenied({ detail: "API keys with scoped projects are only supported on project-based endpoints." }))
          : Effect.void

      // Untraced: every request asks (see Authentication.authenticate).
      const organization = Effect.fnUntraced(function*(actor: Actor, ref: string, scope: Scope) {
        const given = ref === CURRENT && actor._tag === "User" ? actor.user.current_organization_id ?? "" : ref
        const id = canonicalUuid(given)
        yield* organizationEndpoint(actor)
        if (actor._tag === "User") {
          const { scoped_organizations } = actor.key
          if (scoped_organizations !== null && scoped_organizations.length > 0 && !scoped_organizations.includes(id as OrganizationId)) {
            return yield* orgRestricted(given)
          }
        }
        yield* requireScope(actor, scope)
        if (id === undefined) return yield* NotFound.default()
        return yield* findOrganization(actor, id as OrganizationId)
      })

      // Tenancy is asked on every project endpoint: projects are served from memory while fresh.
      const projectById = memoized(yield* Freshness, projects.findById, { name: "projects_by_id", reads: READS.project })
      const findProject = (ref: string) => {
        const id = parseSerial(ref)
        return id === undefined
          ? Effect.fail(NotFound.default())
          : projectById(id as ProjectId).pipe(Effect.flatMap(orNotFound))
      }

      // The project PostHog takes as the user's own: the current project, else the first project of the
      // current organization.
      const currentProject = (actor: Actor): Effect.Effect<string> => {
        if (actor._tag === "System") return Effect.succeed("")
        const { current_project_id, current_organization_id } = actor.user
        if (current_project_id !== null) return Effect.succeed(String(current_project_id))
        if (current_organization_id === null || !actor.memberships.has(current_organization_id)) return Effect.succeed("")
        return projects.list({ organizations: [current_organization_id], ids: null }, { limit: 1, offset: 0 }).pipe(
          Effect.map((page) => String(page.results[0]?.id ?? ""))
        )
      }
      const projectRef = (actor: Actor, ref: string) => (ref === CURRENT ? currentProject(actor) : Effect.succeed(ref))

      // Untraced: every project request asks.
      const project = Effect.fnUntraced(function*(actor: Actor, ref: string, scope: Scope | ReadonlyArray<Scope>) {
        const id = yield* projectRef(actor, ref)
        if (actor._tag === "User") {
          const { scoped_teams } = actor.key
          const wanted = parseSerial(id)
          if (scoped_teams !== null && scoped_teams.length > 0 && (wanted === undefined || !scoped_teams.includes(wanted as ProjectId))) {
            return yield* projectRestricted(id === "" ? ref : id)
          }
        }
        if (typeof scope === "string") yield* requireScope(actor, scope)
        else for (const one of scope) yield* requireScope(actor, one)
        const found = yield* findProject(id)
        const level = heldLevel(actor, found.organization_id) ??
          (actor._tag === "User" ? yield* storedLevel(actor, found.organization_id) : undefined)
        if (level === undefined) return yield* NotFound.default()
        if (actor._tag === "User") {
          const { scoped_organizations } = actor.key
          if (scoped_organizations !== null && scoped_organizations.length > 0 && !scoped_organizations.includes(found.organization_id)) {
            return yield* orgRestricted(found.organization_id)
          }
        }
        return { organization_id: found.organization_id, level, project: found }
      })

      const projectIn = (actor: Actor, access: OrganizationAccess, ref: string) =>
        projectRef(actor, ref).pipe(
          Effect.flatMap(findProject),
          Effect.filterOrFail((found) => found.organization_id === access.organization_id, () => NotFound.default())
        )

      const visibleOrganizations = (actor: Actor): ReadonlyArray<OrganizationId> => {
        if (actor._tag === "System") return []
        const scoped = actor.key.scoped_organizations
        const mine = [...actor.memberships.keys()]
        return scoped !== null && scoped.length > 0 ? mine.filter((id) => scoped.includes(id)) : mine
      }

      return Access.of({ requireScope, organization, organizationEndpoint, project, projectIn, visibleOrganizations, currentProject })
    })
  )
}
