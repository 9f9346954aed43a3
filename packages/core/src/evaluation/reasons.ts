/**
 * Why a flag evaluated as it did: PostHog's reason codes, with the description its flags service sends
 * beside each. Skipped group conditions keep the code `no_condition_match` and say so in the description.
 */
export type ReasonCode =
  | "super_condition_value"
  | "holdout_condition_value"
  | "condition_match"
  | "out_of_rollout_bound"
  | "no_condition_match"
  | "no_group_type"
  | "flag_disabled"
  | "missing_dependency"

export interface Reason {
  readonly code: ReasonCode
  readonly condition_index: number | null
  readonly description: string
}

/** A condition's outcome as the reason ranks it; `groups_not_evaluated` is the upgraded no-match. */
export type Outcome = ReasonCode | "groups_not_evaluated"

/**
 * When no condition matches, the highest-ranked outcome is reported, and of equal ones the last: a
 * real result outranks a condition that could not apply (a group the request does not carry).
 */
export const RANK: Readonly<Record<Outcome, number>> = {
  super_condition_value: 6,
  holdout_condition_value: 5,
  condition_match: 4,
  out_of_rollout_bound: 3,
  no_condition_match: 2,
  groups_not_evaluated: 2,
  no_group_type: 1,
  flag_disabled: 0,
  missing_dependency: -1
}

/** Reasons are shared, frozen, by outcome and condition (slot 0 for none): a flags answer needs one per flag. */
const known = new Map<Outcome, Array<Reason>>()

export const reasonOf = (outcome: Outcome, conditionIndex: number | null): Reason => {
  let reasons = known.get(outcome)
  if (reasons === undefined) known.set(outcome, reasons = [])
  const slot = conditionIndex === null ? 0 : conditionIndex + 1
  return reasons[slot] ??= Object.freeze(describe(outcome, conditionIndex))
}

const describe = (outcome: Outcome, conditionIndex: number | null): Reason => {
  switch (outcome) {
    case "condition_match":
      return { code: outcome, condition_index: conditionIndex, description: `Matched condition set ${(conditionIndex ?? 0) + 1}` }
    case "no_condition_match":
      return { code: outcome, condition_index: conditionIndex, description: "No matching condition set" }
    case "groups_not_evaluated":
      return {
        code: "no_condition_match",
        condition_index: conditionIndex,
        description: "No matching condition set (group conditions were not evaluated because no group type was provided)"
      }
    case "out_of_rollout_bound":
      return { code: outcome, condition_index: conditionIndex, description: "Out of rollout bound" }
    case "no_group_type":
      return { code: outcome, condition_index: conditionIndex, description: "No group type" }
    case "super_condition_value":
      return { code: outcome, condition_index: conditionIndex, description: "Super condition value" }
    case "holdout_condition_value":
      return { code: outcome, condition_index: conditionIndex, description: "Holdout condition value" }
    case "flag_disabled":
      return { code: outcome, condition_index: conditionIndex, description: "Feature flag is disabled" }
    case "missing_dependency":
      return { code: outcome, condition_index: conditionIndex, description: "Flag cannot be evaluated due to missing dependency" }
  }
}

/**
 * The reason for a flag no condition of which matched, from each condition's outcome (one per
 * condition, in order): the search starts at `no_group_type` with no index, so a flag without
 * conditions reports that.
 */
export const noMatchReason = (outcomes: ReadonlyArray<Outcome>): Reason => {
  let best = "no_group_type" as Outcome
  let index: number | null = null
  let skippedGroups = false
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!
    if (outcome === "no_group_type") skippedGroups = true
    if (RANK[best] <= RANK[outcome]) {
      best = outcome
      index = i
    }
  }
  return reasonOf(best === "no_condition_match" && skippedGroups ? "groups_not_evaluated" : best, index)
}
