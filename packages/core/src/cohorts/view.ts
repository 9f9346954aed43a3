import { isTruthy } from "../shared/fields.ts"
import { type BasicCohortView, CohortView, type StoredCohort } from "./model.ts"
import { cohortProperties } from "./properties.ts"

/** The answer's fields in the answer's order (the schema's), so the value prints as its encoding does. */
const ANSWER_FIELDS = Object.keys(CohortView.fields) as ReadonlyArray<keyof CohortView>
const inAnswerOrder = (answer: CohortView): CohortView =>
  Object.fromEntries(ANSWER_FIELDS.map((field) => [field, answer[field]])) as CohortView

/**
 * A cohort as PostHog answers it: the stored cohort's fields, `filters` made from the legacy groups when
 * it has none, and what this service computes no value for (versions, calculation errors) empty. It
 * calculates nothing, so no cohort is ever calculating.
 */
export const toCohortView = (cohort: StoredCohort): CohortView =>
  inAnswerOrder({
    ...cohort,
    filters: isTruthy(cohort.filters) ? cohort.filters : { properties: cohortProperties(cohort) ?? {} },
    query: null,
    version: null,
    pending_version: null,
    last_calculation: null,
    errors_calculating: 0,
    last_error_message: null,
    cohort_type: cohort.is_static ? "static" : null,
    experiment_set: []
  })

/** PostHog's `?basic=true` list: the heavy definition fields left out. */
export const toBasicCohortView = (cohort: StoredCohort): BasicCohortView => {
  const { filters: _filters, query: _query, groups: _groups, ...rest } = toCohortView(cohort)
  return rest
}
