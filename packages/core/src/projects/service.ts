import { Context, Effect, Layer, Option } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access, requireAdmin } from "../auth/access.ts"
import { ProjectGroupTypes } from "../group-types/project-group-types.ts"
import { NotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { ProjectId } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { newProjectToken } from "../shared/secrets.ts"
import { Transactions } from "../shared/transactions.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { requireSystem } from "../shared/system.ts"
import { UserRepository } from "../users/repository.ts"
import { Level, type MembershipLevel } from "../organizations/model.ts"
import {
  DEFAULT_PROJECT_NAME,
  DEFAULT_SETTINGS,
  type Project,
  ProjectCreate,
  type ProjectListItem,
  type ProjectSettings,
  type ProjectView
} from "./model.ts"
import { ProjectRepository } from "./repository.ts"
import { toProjectListItem, toProjectView } from "./views.ts"

const decodeCreate = decodeBody(ProjectCreate)

/** The sample rate as PostHog answers it: fixed two-decimal text. */
const sampleRateText = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : Number(value).toFixed(2)

export class ProjectService extends Context.Service<ProjectService, {
  readonly list: (actor: Actor, organization: string, query: ListQuery) => Effect.Effect<Page<ProjectListItem>, PermissionDenied | NotFound>
  readonly create: (
    actor: Actor,
    organization: string,
    body: Body
  ) => Effect.Effect<ProjectView, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly retrieve: (actor: Actor, organization: string, id: string) => Effect.Effect<ProjectView, PermissionDenied | NotFound>
  /** `/api/projects/`: projects of every organization the caller may see. */
  readonly listVisible: (actor: Actor, query: ListQuery) => Effect.Effect<Page<ProjectListItem>, PermissionDenied>
  readonly retrieveVisible: (actor: Actor, id: string) => Effect.Effect<ProjectView, PermissionDenied | NotFound>
  /**
   * The operator's (in-process) view of the first project made, the one an application embedding
   * Hedgerow reads its flags from unless it names another; none in an empty store.
   */
  readonly first: (actor: Actor) => Effect.Effect<Option.Option<ProjectView>, PermissionDenied>
}>()("hedgerow/ProjectService") {
  static readonly layerNoDeps = Layer.effect(
    ProjectService,
    Effect.gen(function*() {
      const access = yield* Access
      const projects = yield* ProjectRepository
      const users = yield* UserRepository
      const transactions = yield* Transactions
      const groupTypes = yield* ProjectGroupTypes

      const viewOf = (project: Project, level: MembershipLevel | null) =>
        Effect.map(groupTypes.of(project.id), (held) => toProjectView(project, level, held.length > 0))

      const list = Effect.fn("ProjectService.list")(function*(actor: Actor, organization: string, query: ListQuery) {
        const { organization_id } = yield* access.organization(actor, organization, "project:read")
        const page = yield* projects.list({ organizations: [organization_id], ids: null }, pageRequest(query))
        return { ...page, results: page.results.map(toProjectListItem) }
      })

      const create = Effect.fn("ProjectService.create")(function*(actor: Actor, organization: string, body: Body) {
        const orgAccess = yield* access.organization(actor, organization, "project:write")
        // Creating a project needs administrator level, demo projects included; there is no per-organization limit.
        yield* requireAdmin(orgAccess)
        const { organization_id, level } = orgAccess
        const input = yield* decodeCreate(body)
        // A brand-new project has no dashboards, so any primary dashboard is unknown to it.
        if (input.primary_dashboard !== undefined && input.primary_dashboard !== null) {
          return yield* new ValidationError({
            code: "does_not_exist",
            detail: `Invalid pk "${input.primary_dashboard}" - object does not exist.`,
            attr: "primary_dashboard"
          })
        }
        const { name, session_recording_sample_rate, ...given } = input
        const settings: ProjectSettings = {
          ...DEFAULT_SETTINGS,
          ...given,
          session_recording_sample_rate: sampleRateText(session_recording_sample_rate)
        }
        const project = yield* transactions.run(Effect.gen(function*() {
          const created = yield* projects.insert({
            organization_id,
            name: name ?? DEFAULT_PROJECT_NAME,
            api_token: newProjectToken(),
            settings
          })
          // The creator starts working in the project they just made, as in PostHog.
          if (actor._tag === "User") {
            yield* users.setCurrent(actor.user.id, { organization_id, project_id: created.id })
          }
          return created
        }))
        // A new project has no group types yet.
        return toProjectView(project, level, false)
      })

      const retrieve = Effect.fn("ProjectService.retrieve")(function*(actor: Actor, organization: string, id: string) {
        const orgAccess = yield* access.organization(actor, organization, "project:read")
        const project = yield* access.projectIn(actor, orgAccess, id)
        return yield* viewOf(project, orgAccess.level)
      })

      const listVisible = Effect.fn("ProjectService.listVisible")(function*(actor: Actor, query: ListQuery) {
        yield* access.requireScope(actor, "project:read")
        const teams = actor._tag === "User" && actor.key.scoped_teams !== null && actor.key.scoped_teams.length > 0
          ? actor.key.scoped_teams
          : null
        const page = yield* projects.list(
          { organizations: access.visibleOrganizations(actor), ids: teams as ReadonlyArray<ProjectId> | null },
          pageRequest(query)
        )
        return { ...page, results: page.results.map(toProjectListItem) }
      })

      const retrieveVisible = Effect.fn("ProjectService.retrieveVisible")(function*(actor: Actor, id: string) {
        const { project, level } = yield* access.project(actor, id, "project:read")
        return yield* viewOf(project, level)
      })

      const first = Effect.fn("ProjectService.first")(function*(actor: Actor) {
        yield* requireSystem(actor)
        const project = yield* projects.first
        return Option.isNone(project) ? Option.none() : Option.some(yield* viewOf(project.value, Level.owner))
      })

      return ProjectService.of({ list, create, retrieve, listVisible, retrieveVisible, first })
    })
  )
}
