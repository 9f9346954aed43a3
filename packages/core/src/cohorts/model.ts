import { Schema } from "effect"
import { CohortId, ProjectId, UserId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"

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
