import { Context, Effect, Layer } from "effect"
import type { ItemActivity, ProjectActivity } from "../activity/endpoints.ts"
import { ActivityRepository } from "../activity/repository.ts"
import { Access, type ProjectAccess } from "../auth/access.ts"
import type { Actor } from "../auth/actor.ts"
import type { ActionSuccess } from "../feature-flags/model.ts"
import { HARD_DELETE_REFUSED } from "../feature-flags/management/service.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { MethodNotAllowed, NotFound, orNotFound, type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { type CohortId, parseSerial } from "../shared/ids.ts"
import { type ListQuery, type Page, type PageNumberQuery, pageNumberRequest, pageRequest } from "../shared/page.ts"
import type { Scope } from "../shared/scope.ts"
import { cohortBodyOf } from "./input.ts"
import { type CohortListQuery, hiddenForFlags, listFilterOf } from "./list-query.ts"
import { addedMembers, removedMember } from "./members.ts"
import type { BasicCohortView, CohortView } from "./model.ts"
import type { MembersPage } from "./persons.ts"
import { CohortRepository } from "./repository.ts"
import { toBasicCohortView, toCohortView } from "./view.ts"
import { CohortWriter } from "./writer.ts"

const SCOPE = "Cohort"
const ONLY_STATIC_ADD = "Can only add users to static cohorts"
const ONLY_STATIC_REMOVE = "Can only remove users from static cohorts"
/** A dynamic cohort's members are whoever its filters match at evaluation: there is no list to read. */
const DYNAMIC_MEMBERS = "Only a static cohort's members can be listed: this service keeps no persons to match a dynamic cohort's filters against."

export class CohortService extends Context.Service<CohortService, {
  /** The project's live cohorts, newest first, with PostHog's filters (scope cohort:read). */
  readonly list: (
    actor: Actor,
    project: string,
    query: CohortListQuery
  ) => Effect.Effect<Page<CohortView | BasicCohortView>, PermissionDenied | NotFound | ValidationError>
  /** A cohort from JSON or a form carrying a CSV of distinct ids (scope cohort:write). */
  readonly create: (actor: Actor, project: string, body: Body) => Effect.Effect<CohortView, PermissionDenied | NotFound | ValidationError | BodyError>
  /** A cohort, deleted ones too (scope cohort:read). */
  readonly retrieve: (actor: Actor, project: string, id: string) => Effect.Effect<CohortView, PermissionDenied | NotFound>
  /** PATCH and PUT alike: `deleted: true` soft-deletes, `deleted: false` restores (scope cohort:write). */
  readonly update: (
    actor: Actor,
    project: string,
    id: string,
    body: Body
  ) => Effect.Effect<CohortView, PermissionDenied | NotFound | ValidationError | BodyError>
  /** Hard delete is refused for any id, once the caller may write cohorts in the project. */
  readonly destroy: (actor: Actor, project: string, id: string) => Effect.Effect<never, PermissionDenied | NotFound | MethodNotAllowed>
  /** A static cohort's members, a page of them (scopes cohort:read and person:read). */
  readonly persons: (
    actor: Actor,
    project: string,
    id: string,
    query: ListQuery
  ) => Effect.Effect<MembersPage, PermissionDenied | NotFound | ValidationError>
  /** `person_ids` (distinct ids here) added to a static cohort (scope cohort:write). */
  readonly addPersons: (
    actor: Actor,
    project: string,
    id: string,
    body: Body
  ) => Effect.Effect<ActionSuccess, PermissionDenied | NotFound | ValidationError | BodyError>
  /** `person_id` (a distinct id here) taken out of a static cohort (scope cohort:write). */
  readonly removePerson: (
    actor: Actor,
    project: string,
    id: string,
    body: Body
  ) => Effect.Effect<ActionSuccess, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly activity: ItemActivity
  /** Every cohort's activity in the project. */
  readonly projectActivity: ProjectActivity
}>()("hedgerow/CohortService") {
  static readonly layerNoDeps = Layer.effect(
    CohortService,
    Effect.gen(function*() {
      const access = yield* Access
      const cohorts = yield* CohortRepository
      const writer = yield* CohortWriter
      const activityLog = yield* ActivityRepository

      /** A cohort of the project, whatever its state; unknown, malformed and other projects' ids are all 404. */
      const cohortOf = Effect.fnUntraced(function*(actor: Actor, project: string, id: string, scope: Scope | ReadonlyArray<Scope>) {
        const projectAccess = yield* access.project(actor, project, scope)
        const cohortId = parseSerial(id)
        if (cohortId === undefined) return yield* NotFound.default()
        const cohort = yield* cohorts.find(projectAccess.project.id, cohortId as CohortId).pipe(Effect.flatMap(orNotFound))
        return { access: projectAccess, cohort }
      })

      const list = Effect.fn("CohortService.list")(function*(actor: Actor, project: string, query: CohortListQuery) {
        const projectAccess = yield* access.project(actor, project, "cohort:read")
        const filter = listFilterOf(query)
        if (filter instanceof ValidationError) return yield* filter
        const request = pageRequest(query)
        if (filter === undefined) return { count: 0, results: [], request }
        const excluded = filter.hideBehavioral ? yield* behavioralIds(projectAccess) : []
        const page = yield* cohorts.list(projectAccess.project.id, { ...filter.list, excluded }, request)
        return { ...page, results: page.results.map(filter.basic ? toBasicCohortView : toCohortView) }
      })

      const behavioralIds = (projectAccess: ProjectAccess) =>
        Effect.map(cohorts.everyBrief(projectAccess.project.id), hiddenForFlags)

      const create = Effect.fn("CohortService.create")(function*(actor: Actor, project: string, body: Body) {
        const projectAccess = yield* access.project(actor, project, "cohort:write")
        return toCohortView(yield* writer.create(actor, projectAccess, cohortBodyOf(yield* body)))
      })

      const retrieve = Effect.fn("CohortService.retrieve")(function*(actor: Actor, project: string, id: string) {
        return toCohortView((yield* cohortOf(actor, project, id, "cohort:read")).cohort)
      })

      const update = Effect.fn("CohortService.update")(function*(actor: Actor, project: string, id: string, body: Body) {
        const found = yield* cohortOf(actor, project, id, "cohort:write")
        return toCohortView(yield* writer.update(actor, found.access, found.cohort.id, cohortBodyOf(yield* body)))
      })

      const destroy = Effect.fn("CohortService.destroy")(function*(actor: Actor, project: string, _id: string) {
        yield* access.project(actor, project, "cohort:write")
        return yield* new MethodNotAllowed({ detail: HARD_DELETE_REFUSED })
      })

      const persons = Effect.fn("CohortService.persons")(function*(actor: Actor, project: string, id: string, query: ListQuery) {
        const { cohort } = yield* cohortOf(actor, project, id, ["cohort:read", "person:read"])
        if (!cohort.is_static) return yield* ValidationError.field(null, DYNAMIC_MEMBERS, "invalid")
        const request = pageRequest(query)
        return { distinctIds: yield* cohorts.members(cohort.id, request), request }
      })

      /**
       * A member action: the cohort must be static before its body is read, as PostHog checks; then the
       * body is read by `read` and what it names written by `write`, with the action's activity entry.
       */
      const memberAction = <A>(
        name: string,
        notStatic: string,
        read: (body: unknown) => A | ValidationError,
        write: (actor: Actor, access: ProjectAccess, id: CohortId, value: A) => Effect.Effect<void, NotFound>
      ) =>
        Effect.fn(name)(function*(actor: Actor, project: string, id: string, body: Body) {
          const found = yield* cohortOf(actor, project, id, "cohort:write")
          if (!found.cohort.is_static) return yield* ValidationError.field(null, notStatic, "invalid")
          const value = read(yield* body)
          if (value instanceof ValidationError) return yield* value
          yield* write(actor, found.access, found.cohort.id, value)
          return { success: true } as const
        })

      const addPersons = memberAction("CohortService.addPersons", ONLY_STATIC_ADD, addedMembers, writer.addMembers)
      const removePerson = memberAction("CohortService.removePerson", ONLY_STATIC_REMOVE, removedMember, writer.removeMember)

      const activity = Effect.fn("CohortService.activity")(function*(actor: Actor, project: string, id: string, query: PageNumberQuery) {
        const { cohort } = yield* cohortOf(actor, project, id, "activity_log:read")
        return yield* activityLog.page({ project_id: cohort.project_id, scope: SCOPE, item: String(cohort.id) }, pageNumberRequest(query))
      })

      const projectActivity = Effect.fn("CohortService.projectActivity")(function*(actor: Actor, project: string, query: PageNumberQuery) {
        const projectAccess = yield* access.project(actor, project, "activity_log:read")
        return yield* activityLog.page({ project_id: projectAccess.project.id, scope: SCOPE, item: null }, pageNumberRequest(query))
      })

      return CohortService.of({ list, create, retrieve, update, destroy, persons, addPersons, removePerson, activity, projectActivity })
    })
  )
}
