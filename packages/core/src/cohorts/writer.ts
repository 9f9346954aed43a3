import { Context, Effect, Layer, Result, Semaphore } from "effect"
import { changesBetween } from "../activity/changes.ts"
import type { ActivityInsert } from "../activity/repository.ts"
import { ActivityRepository } from "../activity/repository.ts"
import { type ActivityRecord, activityEntry } from "../activity/writer.ts"
import type { Actor } from "../auth/actor.ts"
import type { ProjectAccess } from "../auth/access.ts"
import { failIfAny, type NotFound, orNotFound, ValidationError } from "../shared/errors.ts"
import type { CohortId, ProjectId } from "../shared/ids.ts"
import { Transactions } from "../shared/transactions.ts"
import { distinctIdsOfCsv } from "./csv.ts"
import { type CohortFields, readCohortFields } from "./fields.ts"
import type { CohortBody } from "./input.ts"
import type { StoredCohort } from "./model.ts"
import { hasCriteria } from "./properties.ts"
import { type CohortUpdate, CohortRepository } from "./repository.ts"
import { deletionError, depthError, referenceError } from "./rules.ts"

/** The refusals of what PostHog computes from its analytics data, which this service does not hold. */
export const NO_QUERY_ENGINE =
  "This service has no query engine, so a cohort cannot be filled from a query. Upload a CSV of distinct IDs or list them instead."
export const NO_PERSONS =
  "This service keeps no persons, so a static cohort cannot be filled from filters. Upload a CSV of distinct IDs or list them instead."

const invalid = (detail: string, attr: string | null = null) => ValidationError.field(attr, detail, "invalid")

/** The fields PostHog compares for a cohort's activity entry. */
const LOGGED_FIELDS = ["name", "description", "deleted", "filters", "groups", "is_static"] as const

const SCOPE = "Cohort"

/**
 * How many writes carrying a CSV one process reads and writes at once. Each holds its file's text and
 * ids until its members are written. Reading is the event loop's work, in slices, so more at once would
 * finish none sooner and only hold more memory. Two let one write its members while another's file is read.
 */
const UPLOADS_AT_ONCE = 2

/**
 * Cohort creation, change and membership, each one transaction with its activity entry: a refusal or a
 * failure anywhere leaves no trace. Writes that read other cohorts (names, loops, deletion) take turns per
 * project, so that two writes cannot draw the two halves of a loop.
 */
export class CohortWriter extends Context.Service<CohortWriter, {
  readonly create: (actor: Actor, access: ProjectAccess, body: CohortBody) => Effect.Effect<StoredCohort, ValidationError>
  readonly update: (actor: Actor, access: ProjectAccess, id: CohortId, body: CohortBody) => Effect.Effect<StoredCohort, ValidationError | NotFound>
  /** Adds distinct ids to a static cohort, with PostHog's `persons_added_manually` entry. */
  readonly addMembers: (actor: Actor, access: ProjectAccess, id: CohortId, distinctIds: ReadonlyArray<string>) => Effect.Effect<void, NotFound>
  /** Takes a distinct id out of a static cohort (whether or not it was in), with `person_removed_manually`. */
  readonly removeMember: (actor: Actor, access: ProjectAccess, id: CohortId, distinctId: string) => Effect.Effect<void, NotFound>
}>()("hedgerow/CohortWriter") {
  static readonly layerNoDeps = Layer.effect(
    CohortWriter,
    Effect.gen(function*() {
      const cohorts = yield* CohortRepository
      const activity = yield* ActivityRepository
      const transactions = yield* Transactions

      const takeTurn = (project: ProjectId) => transactions.serialize(`hedgerow:cohorts:${project}`)

      const uploads = yield* Semaphore.make(UPLOADS_AT_ONCE)
      /** A write with a CSV waits its turn among uploads, holding nothing read from its file meanwhile. */
      const inTurn = <A, E>(body: CohortBody, write: Effect.Effect<A, E>) => (body.csv === undefined ? write : uploads.withPermit(write))

      /** The project's cohorts and cohort-naming flags, read once when a rule first needs them. */
      const projectCohorts = (project: ProjectId) =>
        Effect.cached(Effect.all({ cohorts: cohorts.everyBrief(project), flags: cohorts.flagsNamingCohorts(project) }))

      const entry = (actor: Actor, access: ProjectAccess, record: Omit<ActivityRecord, "organization_id" | "project_id" | "scope">): ActivityInsert =>
        activityEntry(actor, { ...record, organization_id: access.organization_id, project_id: access.project.id, scope: SCOPE })

      /** A CSV's ids, read before the transaction (it yields as it goes); its refusal is reported at its turn. */
      const readCsv = (body: CohortBody) =>
        body.csv === undefined ? Effect.succeed(undefined) : Effect.result(distinctIdsOfCsv(body.csv.content))

      const csvIds = (csv: Result.Result<ReadonlyArray<string>, ValidationError> | undefined) =>
        csv === undefined ? Effect.succeed([]) : Result.isFailure(csv) ? Effect.fail(csv.failure) : Effect.succeed(csv.success)

      const create = (actor: Actor, access: ProjectAccess, body: CohortBody) => inTurn(body, created(actor, access, body))

      const created = Effect.fn("CohortWriter.create")(function*(actor: Actor, access: ProjectAccess, body: CohortBody) {
        const project = access.project.id
        const csv = yield* readCsv(body)
        return yield* transactions.run(Effect.gen(function*() {
          yield* takeTurn(project)
          const known = yield* projectCohorts(project)
          const fields = yield* readCohortFields(body.data, undefined, known)
          const isStatic = fields.is_static ?? false
          if (fields.query !== null && hasCriteria(fields.filters)) return yield* invalid("Cannot set both query and filters at the same time.")
          if (fields.query !== null && !isStatic) return yield* invalid("Cannot create a dynamic cohort with a query. Set is_static to true.")
          if (fields.query !== null) return yield* invalid(NO_QUERY_ENGINE, "query")
          const written = { id: null, filters: fields.filters ?? null, groups: fields.groups ?? [] }
          yield* failIfAny(referenceError(written, yield* known))
          yield* failIfAny(depthError({ ...written, is_static: isStatic, deleted: false }, yield* known))
          const members = isStatic ? yield* startingMembers(fields, csv) : []
          const created = yield* cohorts.insert({
            project_id: project,
            name: fields.name ?? null,
            description: fields.description ?? "",
            groups: fields.groups ?? [],
            filters: fields.filters ?? null,
            is_static: isStatic,
            is_calculating: false,
            count: isStatic ? 0 : null,
            created_by_id: actor._tag === "User" ? actor.user.id : null
          })
          if (members.length > 0) yield* cohorts.addMembers(created.id, members)
          yield* activity.insert(entry(actor, access, { activity: "created", item_id: String(created.id), name: created.name, changes: null }))
          return members.length === 0 ? created : yield* found(project, created.id)
        }))
      })

      /** PostHog fills a new static cohort from its listed ids and its CSV, or else from its criteria. */
      const startingMembers = (fields: CohortFields, csv: Result.Result<ReadonlyArray<string>, ValidationError> | undefined) =>
        Effect.gen(function*() {
          if (csv === undefined && fields.members.length === 0 && hasCriteria(fields.filters)) return yield* invalid(NO_PERSONS, "filters")
          return [...fields.members, ...(yield* csvIds(csv))]
        })

      const found = (project: ProjectId, id: CohortId) => cohorts.find(project, id).pipe(Effect.flatMap(orNotFound), Effect.orDie)

      const update = (actor: Actor, access: ProjectAccess, id: CohortId, body: CohortBody) => inTurn(body, updated(actor, access, id, body))

      const updated = Effect.fn("CohortWriter.update")(function*(actor: Actor, access: ProjectAccess, id: CohortId, body: CohortBody) {
        const project = access.project.id
        const csv = yield* readCsv(body)
        return yield* transactions.run(Effect.gen(function*() {
          yield* takeTurn(project)
          const current = yield* cohorts.lock(project, id).pipe(Effect.flatMap(orNotFound))
          const known = yield* projectCohorts(project)
          const fields = yield* readCohortFields(body.data, current, known)
          const next: CohortUpdate = {
            name: fields.name === undefined ? current.name : fields.name,
            description: fields.description ?? current.description,
            groups: fields.groups ?? current.groups,
            filters: "filters" in fields ? fields.filters ?? null : current.filters,
            is_static: fields.is_static ?? current.is_static,
            deleted: fields.deleted ?? current.deleted
          }
          const filtersChanged = "filters" in fields && JSON.stringify(fields.filters) !== JSON.stringify(current.filters)
          if (next.is_static && filtersChanged && (hasCriteria(current.filters) || hasCriteria(fields.filters))) {
            return yield* invalid("Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.")
          }
          if (fields.query !== null) return yield* invalid(NO_QUERY_ENGINE, "query")
          if (next.deleted && !current.deleted) yield* failIfAny(deletionError(current.id, yield* known))
          yield* failIfAny(referenceError({ id: current.id, filters: next.filters, groups: next.groups }, yield* known))
          yield* failIfAny(depthError({ id: current.id, ...next }, yield* known))
          // A CSV fills a static cohort that is not being deleted; a dynamic cohort has no list to fill.
          const members = next.is_static && fields.deleted !== true ? yield* csvIds(csv) : []
          const changes = changesBetween(SCOPE, LOGGED_FIELDS, current, { ...current, ...next })
          const deletedChange = next.deleted !== current.deleted
          yield* cohorts.update(current.id, next)
          if (members.length > 0) yield* cohorts.addMembers(current.id, members)
          else if (next.is_static !== current.is_static) yield* cohorts.recount(current.id)
          yield* activity.insert(entry(actor, access, {
            activity: deletedChange ? (next.deleted ? "deleted" : "restored") : "updated",
            item_id: String(current.id),
            name: next.name,
            changes
          }))
          return yield* found(project, current.id)
        }))
      })

      /** A member change of a static cohort, under its row's lock, with its entry. */
      const memberChange = (actor: Actor, access: ProjectAccess, id: CohortId, kind: ActivityRecord["activity"], write: Effect.Effect<void>) =>
        transactions.run(Effect.gen(function*() {
          yield* cohorts.lock(access.project.id, id).pipe(Effect.flatMap(orNotFound))
          yield* write
          yield* activity.insert(entry(actor, access, {
            activity: kind,
            item_id: String(id),
            name: null,
            changes: [{ type: SCOPE, action: "changed", field: null, before: null, after: null }]
          }))
        }))

      const addMembers = (actor: Actor, access: ProjectAccess, id: CohortId, distinctIds: ReadonlyArray<string>) =>
        memberChange(actor, access, id, "persons_added_manually", cohorts.addMembers(id, distinctIds))

      const removeMember = (actor: Actor, access: ProjectAccess, id: CohortId, distinctId: string) =>
        memberChange(actor, access, id, "person_removed_manually", cohorts.removeMember(id, distinctId))

      return CohortWriter.of({ create, update, addMembers, removeMember })
    })
  )
}
