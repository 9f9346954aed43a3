import { evaluateFlags } from "../evaluation/evaluate.ts"
import { ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import type { EvaluationReasons, EvaluationReasonsQuery } from "./model.ts"
import type { FlagSnapshot } from "./snapshot.ts"

/** The groups a query names, or the 400 when they are not a JSON object (PostHog fails on them with a 500). */
const groupsOf = (text: string | undefined): JsonRecord | ValidationError => {
  if (text === undefined) return {}
  let groups: unknown
  try {
    groups = JSON.parse(text)
  } catch {
    groups = undefined
  }
  return isRecord(groups) ? groups : ValidationError.field("groups", "groups must be a JSON object.")
}

/**
 * Why each flag of the project evaluates as it does for a distinct id (and groups), as PostHog's
 * `evaluation_reasons` answers: the active flags as evaluated, then the inactive ones, `disabled`. With
 * no persons kept, the person has only their distinct id (and the static cohorts listing it); a flag the
 * service cannot evaluate (in a dependency cycle) has no reason to give and is left out.
 */
export const evaluationReasons = (
  snapshot: FlagSnapshot,
  query: EvaluationReasonsQuery,
  cohortMembers?: ReadonlySet<number>
): EvaluationReasons | ValidationError => {
  if (query.distinct_id === undefined || query.distinct_id === "") return ValidationError.field(null, "distinct_id is required")
  const groups = groupsOf(query.groups)
  if (groups instanceof ValidationError) return groups
  const { prepared } = snapshot
  const evaluation = evaluateFlags(prepared, { distinct_id: query.distinct_id, groups, cohort_members: cohortMembers })
  const reasons: Record<string, EvaluationReasons[string]> = {}
  prepared.flags.forEach((flag, i) => {
    const result = evaluation.results[i]!
    if (!flag.flag.active || result === null) return
    reasons[flag.key] = {
      value: result.variant ?? result.enabled,
      evaluation: { reason: result.reason.code, condition_index: result.reason.condition_index }
    }
  })
  for (const flag of prepared.flags) {
    if (!flag.flag.active) reasons[flag.key] = { value: false, evaluation: { reason: "disabled", condition_index: null } }
  }
  return reasons
}
