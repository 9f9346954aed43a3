import { Context, type Effect, Schema, Struct } from "effect"
import { Cohort, type StoredCohort } from "./model.ts"
import type { ProjectId } from "../shared/ids.ts"

/**
 * A cohort as written: the database gives it its id and time, and it starts live and without
 * conditions (the static cohorts made here have none).
 */
export const CohortInsert = Schema.Struct(Struct.omit(Cohort.fields, ["id", "created_at", "deleted", "groups", "filters"]))
export type CohortInsert = typeof CohortInsert.Type

/** What flags need to know about a cohort they reference. */
export const CohortBrief = Schema.Struct(Struct.pick(Cohort.fields, ["id", "name", "filters", "groups", "deleted"]))
export type CohortBrief = typeof CohortBrief.Type

export class CohortRepository extends Context.Service<CohortRepository, {
  readonly insert: (input: CohortInsert) => Effect.Effect<StoredCohort>
  /** The project's cohorts that are not deleted, by id: what flag evaluation reads its cohorts from. */
  readonly live: (project: ProjectId) => Effect.Effect<ReadonlyArray<Cohort>>
  /** Cohorts of the project with these ids, deleted ones included. */
  readonly briefs: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<CohortBrief>>
}>()("hedgerow/CohortRepository") {}
