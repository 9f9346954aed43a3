import { Schema, Struct } from "effect"
import { CohortId, ProjectId, UserId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"
import { FlagRecord } from "../feature-flags/model.ts"
import { UserSummary } from "../users/model.ts"

/**
 * A stored cohort. A dynamic one is its `filters` (or its legacy `groups`); a static one holds distinct
 * ids (this service keeps no persons), counted in `count`.
 */
export const Cohort = Schema.Struct({
  id: CohortId,
  project_id: ProjectId,
  /** PostHog allows a cohort without a name. */
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  groups: Json,
  filters: Json,
  is_static: Schema.Boolean,
  is_calculating: Schema.Boolean,
  count: Schema.NullOr(Schema.Int),
  created_by_id: Schema.NullOr(UserId),
  created_at: Timestamp,
  deleted: Schema.Boolean
})
export type Cohort = typeof Cohort.Type

/** A stored cohort with its creator (the few fields PostHog shows of a user), read in one statement. */
export const StoredCohort = Schema.Struct({
  ...Cohort.fields,
  created_by: Schema.NullOr(UserSummary)
})
export type StoredCohort = typeof StoredCohort.Type

/**
 * A cohort as the rules about cohorts naming cohorts read it (references, loops, depth, deletion, flags)
 * and as evaluation reads its definition.
 */
export const CohortBrief = Schema.Struct(Struct.pick(Cohort.fields, ["id", "name", "filters", "groups", "deleted", "is_static"]))
export type CohortBrief = typeof CohortBrief.Type

/** A flag as the cohort rules read it: which cohorts it names, and whether it holds them. */
export const FlagNode = Schema.Struct(Struct.pick(FlagRecord.fields, ["id", "key", "name", "active", "deleted", "filters"]))
export type FlagNode = typeof FlagNode.Type

/** What the answer adds to a stored cohort: fields of PostHog's that this service computes no value for. */
const answerOnlyFields = {
  query: Json,
  version: Schema.NullOr(Schema.Int),
  pending_version: Schema.NullOr(Schema.Int),
  last_calculation: Schema.NullOr(Timestamp),
  errors_calculating: Schema.Int,
  last_error_message: Schema.NullOr(Schema.String),
  cohort_type: Schema.NullOr(Schema.String),
  experiment_set: Schema.Array(Schema.Int)
}

/** The answer's fields, in the order PostHog declares (and prints) them. */
export const COHORT_VIEW_FIELDS = [
  "id", "name", "description", "groups", "deleted", "filters", "query", "version", "pending_version",
  "is_calculating", "created_by", "created_at", "last_calculation", "errors_calculating", "last_error_message",
  "count", "is_static", "cohort_type", "experiment_set"
] as const

/** `keys`' entries of `fields`, in the order of `keys` (Struct.pick keeps the source's order). */
const fieldsInOrder = <F extends Schema.Struct.Fields, const K extends ReadonlyArray<keyof F>>(fields: F, keys: K) =>
  Object.fromEntries(keys.map((key) => [key, fields[key]])) as Pick<F, K[number]>

/** A cohort as PostHog answers it: the stored cohort's fields plus the answer's own. */
export const CohortView = Schema.Struct(fieldsInOrder({ ...StoredCohort.fields, ...answerOnlyFields }, COHORT_VIEW_FIELDS))
export type CohortView = typeof CohortView.Type

/** A cohort in PostHog's `?basic=true` list: the heavy definition fields left out. */
export const BasicCohortView = Schema.Struct(Struct.omit(CohortView.fields, ["filters", "query", "groups"]))
export type BasicCohortView = typeof BasicCohortView.Type

/** `POST {id}/create_static_cohort_for_flag/` answers `{"cohort": {...}}`. */
export const StaticCohortCreated = Schema.Struct({ cohort: CohortView })
export type StaticCohortCreated = typeof StaticCohortCreated.Type

/**
 * A member of a static cohort as `{id}/persons/` lists it: PostHog's person fields that a distinct id
 * alone fills (this service keeps no persons, so no person id, properties or times).
 */
export const CohortPerson = Schema.Struct({
  type: Schema.Literal("person"),
  name: Schema.String,
  distinct_ids: Schema.Array(Schema.String),
  properties: Schema.Record(Schema.String, Schema.Unknown)
})
export type CohortPerson = typeof CohortPerson.Type

/** `GET {id}/persons/`: PostHog's page of persons, with links but no count. */
export const CohortPersons = Schema.Struct({
  results: Schema.Array(CohortPerson),
  next: Schema.NullOr(Schema.String),
  previous: Schema.NullOr(Schema.String)
})
export type CohortPersons = typeof CohortPersons.Type

