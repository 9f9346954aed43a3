import type { Cohort, CohortView } from "./model.ts"
import type { UserSummary } from "../users/model.ts"

/** A cohort as PostHog's CohortSerializer renders it; this service computes no versions or persons. */
export const toCohortView = (cohort: Cohort & { readonly created_by: UserSummary | null }): CohortView => ({
  id: cohort.id,
  name: cohort.name,
  description: cohort.description,
  groups: cohort.groups,
  deleted: cohort.deleted,
  filters: cohort.filters,
  query: null,
  version: null,
  pending_version: null,
  is_calculating: cohort.is_calculating,
  created_by: cohort.created_by,
  created_at: cohort.created_at,
  last_calculation: null,
  errors_calculating: 0,
  last_error_message: null,
  count: cohort.count,
  is_static: cohort.is_static,
  cohort_type: cohort.is_static ? "static" : null,
  experiment_set: []
})
