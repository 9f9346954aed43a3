import { Clock, Context, Effect, Layer } from "effect"
import type { ItemActivity, ProjectActivity } from "../../activity/endpoints.ts"
import { ActivityRepository } from "../../activity/repository.ts"
import { Access } from "../../auth/access.ts"
import type { Actor } from "../../auth/actor.ts"
import type { Body, BodyError } from "../../shared/body.ts"
import { type Conflict, MethodNotAllowed, type NotFound, type PermissionDenied, type ValidationError } from "../../shared/errors.ts"
import { type Page, type PageNumberQuery, pageNumberRequest, pageRequest } from "../../shared/page.ts"
import { millisOf } from "../../shared/time.ts"
import { FlagCallerRights } from "../access/caller-rights.ts"
import { LiveFlags } from "../live/live-flags.ts"
import { selectFlags } from "../live/project-flags.ts"
import { FlagLookup } from "../lookup.ts"
import type { FlagStatus, FlagView } from "../model.ts"
import { FlagRenderer } from "../renderer.ts"
import { FlagRepository } from "../repository.ts"
import { statusOf } from "../status.ts"
import { FlagUsage } from "../usage/last-called.ts"
import { FLAG_ACTIVITY_SCOPE } from "./changes.ts"
import { archivePlan, type FlagListQuery, isArchiveQuery, listPlan } from "./list-query.ts"
import { FlagWriter } from "./writer.ts"

/** PostHog answers an empty 405; this service explains what to do instead. */
export const HARD_DELETE_REFUSED = "Hard delete of this model is not allowed. Use a patch API call to set \"deleted\" to true"

/**
 * The flag endpoints, one method each. Each checks the key's scope and the project first, then the flag,
 * then the body, then the rules that read stored data, in PostHog's order.
 */
export class FlagService extends Context.Service<FlagService, {
  readonly list: (actor: Actor, project: string, query: FlagListQuery) => Effect.Effect<Page<FlagView>, PermissionDenied | NotFound>
  readonly create: (
    actor: Actor,
    project: string,
    body: Body
  ) => Effect.Effect<FlagView, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly retrieve: (actor: Actor, project: string, id: string) => Effect.Effect<FlagView, PermissionDenied | NotFound>
  readonly update: (
    actor: Actor,
    project: string,
    id: string,
    body: Body
  ) => Effect.Effect<FlagView, PermissionDenied | NotFound | ValidationError | Conflict | BodyError>
  /** Hard delete is refused for any id, once the caller may write flags in the project. */
  readonly destroy: (actor: Actor, project: string, id: string) => Effect.Effect<never, PermissionDenied | NotFound | MethodNotAllowed>
  readonly status: (actor: Actor, project: string, id: string) => Effect.Effect<FlagStatus, PermissionDenied | NotFound>
  readonly activity: ItemActivity
  /** Every flag's activity in the project. */
  readonly projectActivity: ProjectActivity
}>()("hedgerow/FlagService") {
  static readonly layerNoDeps = Layer.effect(
    FlagService,
    Effect.gen(function*() {
      const access = yield* Access
      const liveFlags = yield* LiveFlags
      const lookup = yield* FlagLookup
      const rights = yield* FlagCallerRights
      const renderer = yield* FlagRenderer
      const writer = yield* FlagWriter
      const activityLog = yield* ActivityRepository
      const usage = yield* FlagUsage
      const flagRows = yield* FlagRepository

      // The reads are untraced: served from memory, a span per call is a cost (see Authentication.authenticate).
      const list = Effect.fnUntraced(function*(actor: Actor, project: string, query: FlagListQuery) {
        const projectAccess = yield* access.project(actor, project, "feature_flag:read")
        const request = pageRequest(query)
        if (isArchiveQuery(query)) {
          const archive = archivePlan(query)
          if (archive._tag === "Empty") return { count: 0, results: [], request }
          const deleted = yield* flagRows.deletedPage(projectAccess.project.id, archive.search, request)
          const deletedRights = yield* rights.of(actor, projectAccess, deleted.results)
          return { ...deleted, results: yield* renderer.render(projectAccess, deleted.results, deletedRights) }
        }
        const plan = listPlan(query, yield* Clock.currentTimeMillis)
        if (plan._tag === "Empty") return { count: 0, results: [], request }
        // Staleness reads the flags' calls.
        const lastCalled = plan.filter.staleAt === null ? undefined : yield* usage.lastCalled(projectAccess.project.id)
        const page = selectFlags(yield* liveFlags.of(projectAccess.project.id), plan.filter, request, lastCalled)
        const callerRights = yield* rights.of(actor, projectAccess, page.results)
        return { ...page, results: yield* renderer.render(projectAccess, page.results, callerRights) }
      })

      const create = Effect.fn("FeatureFlagService.create")(function*(actor: Actor, project: string, body: Body) {
        const projectAccess = yield* access.project(actor, project, "feature_flag:write")
        const created = yield* writer.create(actor, projectAccess, yield* body)
        return yield* renderer.renderOne(projectAccess, created, yield* rights.of(actor, projectAccess, [created]))
      })

      const retrieve = Effect.fnUntraced(function*(actor: Actor, project: string, id: string) {
        const found = yield* lookup.flag(actor, project, id, "feature_flag:read")
        return yield* renderer.renderOne(found.access, found.flag, yield* rights.of(actor, found.access, [found.flag]))
      })

      const update = Effect.fn("FeatureFlagService.update")(function*(actor: Actor, project: string, id: string, body: Body) {
        const found = yield* lookup.flag(actor, project, id, "feature_flag:write")
        // Decided once: the writer refuses a flag the caller may not edit, and the answer shows the same rights.
        const callerRights = yield* rights.of(actor, found.access, [found.flag])
        const updated = yield* writer.update(actor, found, callerRights, body)
        return yield* renderer.renderOne(found.access, updated, callerRights)
      })

      const destroy = Effect.fn("FeatureFlagService.destroy")(function*(actor: Actor, project: string, _id: string) {
        yield* access.project(actor, project, "feature_flag:write")
        return yield* new MethodNotAllowed({ detail: HARD_DELETE_REFUSED })
      })

      const status = Effect.fn("FeatureFlagService.status")(function*(actor: Actor, project: string, id: string) {
        const { access: projectAccess, flag } = yield* lookup.flag(actor, project, id, "feature_flag:read")
        const lastCalled = (yield* usage.lastCalled(projectAccess.project.id))(flag.id)
        return statusOf(flag, yield* Clock.currentTimeMillis, lastCalled === null ? null : millisOf(lastCalled))
      })

      const activity = Effect.fn("FeatureFlagService.activity")(function*(
        actor: Actor,
        project: string,
        id: string,
        query: PageNumberQuery
      ) {
        const { flag } = yield* lookup.flag(actor, project, id, "activity_log:read")
        return yield* activityLog.page(
          { project_id: flag.project_id, scope: FLAG_ACTIVITY_SCOPE, item: String(flag.id) },
          pageNumberRequest(query)
        )
      })

      const projectActivity = Effect.fn("FeatureFlagService.projectActivity")(function*(
        actor: Actor,
        project: string,
        query: PageNumberQuery
      ) {
        const projectAccess = yield* access.project(actor, project, "activity_log:read")
        return yield* activityLog.page(
          { project_id: projectAccess.project.id, scope: FLAG_ACTIVITY_SCOPE, item: null },
          pageNumberRequest(query)
        )
      })

      return FlagService.of({ list, create, retrieve, update, destroy, status, activity, projectActivity })
    })
  )
}
