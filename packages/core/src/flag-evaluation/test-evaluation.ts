import { evaluateFlags } from "../evaluation/evaluate.ts"
import { flagDetailsOf } from "./answers.ts"
import type { FlagTestEvaluation } from "./model.ts"
import type { FlagsRequest } from "./request.ts"
import type { FlagSnapshot } from "./snapshot.ts"

/**
 * The flag `id` of the snapshot evaluated for the request's person as `/flags?v=2` would answer it to a
 * caller of any runtime; null where `/flags` would leave it out: not live (deleted), inactive, or one the
 * service does not evaluate (in a dependency cycle).
 */
export const testEvaluationOf = (
  held: FlagSnapshot,
  id: number,
  request: FlagsRequest & { readonly distinct_id: string },
  cohortMembers: ReadonlySet<number> | undefined,
  now: Date
): FlagTestEvaluation => {
  const { prepared } = held
  const live = prepared.byId.get(id)
  if (live === undefined || !live.flag.active) return { flag: null, errorsWhileComputingFlags: false }
  const evaluation = evaluateFlags(prepared, {
    distinct_id: request.distinct_id,
    cohort_members: cohortMembers,
    device_id: request.device_id,
    anon_distinct_id: request.anon_distinct_id,
    person_properties: request.person_properties,
    groups: request.groups,
    group_properties: request.group_properties,
    only: [live.key],
    now
  })
  const result = evaluation.results[prepared.flags.indexOf(live)] ?? null
  return { flag: result === null ? null : flagDetailsOf(result), errorsWhileComputingFlags: evaluation.errorsWhileComputingFlags }
}
