import { Schema } from "effect"
import { CohortId, ProjectId, UserId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"

/** A stored cohort; static cohorts made here hold no persons, which live outside this service (D5). */
export const Cohort = Schema.Struct({
  id: CohortId,
  project_id: ProjectId,
  name: Schema.String,
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

/** A cohort as PostHog's CohortSerializer renders it. */
export const CohortView = Schema.Struct({
  id: CohortId,
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  groups: Json,
  deleted: Schema.Boolean,
  filters: Json,
  query: Json,
  version: Schema.NullOr(Schema.Int),
  pending_version: Schema.NullOr(Schema.Int),
  is_calculating: Schema.Boolean,
  created_by: Schema.NullOr(UserSummary),
  created_at: Timestamp,
  last_calculation: Schema.NullOr(Timestamp),
  errors_calculating: Schema.Int,
  last_error_message: Schema.NullOr(Schema.String),
  count: Schema.NullOr(Schema.Int),
  is_static: Schema.Boolean,
  cohort_type: Schema.NullOr(Schema.String),
  experiment_set: Schema.Array(Schema.Int)
})
export type CohortView = typeof CohortView.Type

/** `POST {id}/create_static_cohort_for_flag/` answers `{"cohort": {...}}`. */
export const StaticCohortCreated = Schema.Struct({ cohort: CohortView })
export type StaticCohortCreated = typeof StaticCohortCreated.Type
