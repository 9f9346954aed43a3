import { CohortView, type StoredCohort } from "./model.ts"

/** The answer's fields in the answer's order (the schema's), so the value prints as its encoding does. */
const ANSWER_FIELDS = Object.keys(CohortView.fields) as ReadonlyArray<keyof CohortView>
const inAnswerOrder = (answer: CohortView): CohortView =>
  Object.fromEntries(ANSWER_FIELDS.map((field) => [field, answer[field]])) as CohortView

/**
 * A cohort as PostHog's CohortSerializer renders it: the stored cohort's fields, and what this service
 * computes no value for (versions, persons, errors) empty.
 */
export const toCohortView = (cohort: StoredCohort): CohortView =>
  inAnswerOrder({
    ...cohort,
    query: null,
    version: null,
    pending_version: null,
    last_calculation: null,
    errors_calculating: 0,
    last_error_message: null,
    cohort_type: cohort.is_static ? "static" : null,
    experiment_set: []
  })
