import { Context, type Effect, type Option, Schema, Struct } from "effect"
import { Cohort, type CohortBrief, type FlagNode, type StoredCohort } from "./model.ts"
import type { CohortId, ProjectId, UserId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

/** A cohort as written: the database gives it its id and time, and it starts live. */
export const CohortInsert = Schema.Struct(Struct.omit(Cohort.fields, ["id", "created_at", "deleted"]))
export type CohortInsert = typeof CohortInsert.Type

/** What a change of a cohort writes; its members and their count are written on their own. */
export const CohortUpdate = Schema.Struct(Struct.pick(Cohort.fields, ["name", "description", "groups", "filters", "is_static", "deleted"]))
export type CohortUpdate = typeof CohortUpdate.Type

/** The list's filters, as PostHog's cohort list reads its query. */
export interface CohortListFilter {
  /** `type=static` or `dynamic`. */
  readonly is_static?: boolean | undefined
  readonly created_by_id?: UserId | undefined
  /** A case-insensitive part of the name. */
  readonly search?: string | undefined
  /** Cohorts left out (`hide_behavioral_cohorts`). */
  readonly excluded?: ReadonlyArray<number> | undefined
}

export class CohortRepository extends Context.Service<CohortRepository, {
  readonly insert: (input: CohortInsert) => Effect.Effect<StoredCohort>
  /** A cohort of the project, deleted or not. */
  readonly find: (project: ProjectId, id: CohortId) => Effect.Effect<Option.Option<StoredCohort>>
  /** The same, its row locked until the transaction ends. */
  readonly lock: (project: ProjectId, id: CohortId) => Effect.Effect<Option.Option<StoredCohort>>
  readonly update: (id: CohortId, change: CohortUpdate) => Effect.Effect<StoredCohort>
  /** The project's cohorts that are not deleted, newest first (ties by id), filtered. */
  readonly list: (project: ProjectId, filter: CohortListFilter, page: PageRequest) => Effect.Effect<Page<StoredCohort>>
  /** The project's cohorts that are not deleted, by id: what flag evaluation reads its cohorts from. */
  readonly live: (project: ProjectId) => Effect.Effect<ReadonlyArray<Cohort>>
  /** Cohorts of the project with these ids, deleted ones included. */
  readonly briefs: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<CohortBrief>>
  /** Every cohort of the project, deleted ones included: what the reference rules walk. */
  readonly everyBrief: (project: ProjectId) => Effect.Effect<ReadonlyArray<CohortBrief>>
  /** The project's flags whose filters name some cohort, deleted and inactive ones included. */
  readonly flagsNamingCohorts: (project: ProjectId) => Effect.Effect<ReadonlyArray<FlagNode>>
  /** Adds distinct ids a static cohort does not hold yet, in batches; then its `count` is set again. */
  readonly addMembers: (cohort: CohortId, distinctIds: ReadonlyArray<string>) => Effect.Effect<void>
  /** Takes a distinct id out of a cohort, whether or not it was in; then its `count` is set again. */
  readonly removeMember: (cohort: CohortId, distinctId: string) => Effect.Effect<void>
  /** `count` as the cohort's kind has it: a static cohort's members, null for a dynamic one. */
  readonly recount: (cohort: CohortId) => Effect.Effect<void>
  /** A page of a cohort's members' distinct ids, in code point order. */
  readonly members: (cohort: CohortId, page: PageRequest) => Effect.Effect<ReadonlyArray<string>>
  /** Which of these cohorts hold the distinct id: one probe of the members' key per cohort. */
  readonly memberships: (distinctId: string, cohorts: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>>
}>()("hedgerow/CohortRepository") {}
