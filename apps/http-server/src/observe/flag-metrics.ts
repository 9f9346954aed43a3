import { type FlagCount, FlagEvaluationService, FlagMeter, MAX_METERED_FLAGS } from "@hedgerow/core"
import { Effect } from "effect"
import { family, sample } from "./prometheus-text.ts"

const EVALUATIONS = "hedgerow_flag_evaluations_total"
const CALLS = "hedgerow_flag_calls_total"

/** The flag id every flag seen past the meter's bound is counted under. */
export const OVERFLOW_FLAG_ID = "other"

/**
 * Evaluations and reported calls by project and flag, since the process started: a series per flag
 * counted, at most MAX_METERED_FLAGS of them, and one for the flags past that. A flag is named by its
 * key when its project's live flags still hold it, else by its id alone.
 */
export const flagMetrics = Effect.gen(function*() {
  const meter = yield* FlagMeter
  const evaluation = yield* FlagEvaluationService
  const { flags, overflow } = meter.counts()
  const byProject = new Map<FlagCount["project"], Array<FlagCount>>()
  for (const count of flags) {
    const counts = byProject.get(count.project)
    if (counts === undefined) byProject.set(count.project, [count])
    else counts.push(count)
  }
  const bound = `at most ${MAX_METERED_FLAGS} flags; the rest under flag_id="${OVERFLOW_FLAG_ID}"`
  let evaluations = family(EVALUATIONS, "counter", `Flags evaluated, by project and flag (${bound}).`)
  let calls = family(CALLS, "counter", `Flag calls the SDKs reported ($feature_flag_called), by project and flag (${bound}).`)
  for (const [project, counts] of byProject) {
    const { prepared } = yield* evaluation.snapshot(project)
    for (const count of counts) {
      const key = prepared.byId.get(count.flag)?.flag.key ?? ""
      const labels = [["project_id", String(project)], ["flag_id", String(count.flag)], ["flag", key]] as const
      evaluations += sample(EVALUATIONS, labels, count.evaluations)
      calls += sample(CALLS, labels, count.calls)
    }
  }
  const rest = [["project_id", ""], ["flag_id", OVERFLOW_FLAG_ID], ["flag", ""]] as const
  return evaluations + sample(EVALUATIONS, rest, overflow.evaluations) + calls + sample(CALLS, rest, overflow.calls)
})
