import type { PropertyOperator } from "@hedgerow/core"

/**
 * The words for each operator core evaluates (in types only: the record must name every one of core's
 * operators and no other, so the list cannot drift from the evaluators), in PostHog's words.
 */
export const OPERATOR_WORDS = {
  exact: "equals",
  is_not: "doesn't equal",
  icontains: "contains",
  not_icontains: "doesn't contain",
  regex: "matches regex",
  not_regex: "doesn't match regex",
  gt: "greater than",
  gte: "greater than or equal",
  lt: "less than",
  lte: "less than or equal",
  is_set: "is set",
  is_not_set: "is not set",
  starts_with: "starts with",
  not_starts_with: "doesn't start with",
  ends_with: "ends with",
  not_ends_with: "doesn't end with",
  icontains_multi: "contains any of",
  not_icontains_multi: "contains none of",
  between: "between",
  not_between: "not between",
  is_date_exact: "on the date",
  is_date_before: "before the date",
  is_date_after: "after the date",
  semver_eq: "semver equals",
  semver_neq: "semver doesn't equal",
  semver_gt: "semver greater than",
  semver_gte: "semver greater than or equal",
  semver_lt: "semver less than",
  semver_lte: "semver less than or equal",
  semver_tilde: "semver tilde range (~)",
  semver_caret: "semver caret range (^)",
  semver_wildcard: "semver wildcard (*)"
} as const satisfies Record<PropertyOperator, string>

/** The select's options; an operator a stored filter names that core does not know is kept, as given. */
export const operatorOptions = (current: string): ReadonlyArray<readonly [string, string]> => {
  const known: Array<readonly [string, string]> = Object.entries(OPERATOR_WORDS)
  return Object.hasOwn(OPERATOR_WORDS, current) ? known : [...known, [current, current]]
}
