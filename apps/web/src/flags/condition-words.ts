import { type Draft, type DraftGroup, type DraftProperty, LIST_OPERATORS, VALUELESS_OPERATORS } from "./draft.ts"
import { OPERATOR_WORDS } from "./operators.ts"

/**
 * A draft's release conditions and variant split in words, as the save's confirmation shows them before
 * and after: "Condition 1: 30 % of users where email contains "@acme.com"".
 */

const operatorWords = (operator: string): string => (OPERATOR_WORDS as Record<string, string | undefined>)[operator] ?? operator

const valueWords = (property: DraftProperty): string =>
  LIST_OPERATORS.has(property.operator)
    ? property.value.split(",").map((item) => `"${item.trim()}"`).filter((item) => item !== `""`).join(", ")
    : `"${property.value}"`

/** One filter: `email contains "@acme.com"`, `in cohort "12"`. */
export const propertyWords = (property: DraftProperty): string => {
  if (property.type === "cohort") return `${property.operator === "not_in" ? "not in" : "in"} cohort ${valueWords(property)}`
  const name = property.type === "flag" ? `flag ${property.key}` : property.key === "" ? "(no property)" : property.key
  return VALUELESS_OPERATORS.has(property.operator)
    ? `${name} ${operatorWords(property.operator)}`
    : `${name} ${operatorWords(property.operator)} ${valueWords(property)}`
}

/** Who one condition reaches: "all users", "30 % of users where …". */
export const groupWords = (group: DraftGroup, subject: string): string => {
  const share = group.rollout === 100 ? `all ${subject}` : `${group.rollout} % of ${subject}`
  return group.properties.length === 0 ? share : `${share} where ${group.properties.map(propertyWords).join(" and ")}`
}

/** Whom the flag's conditions are about: people, unless the filters aggregate by a group type. */
const subjectOf = (draft: Draft): string =>
  typeof draft.filters["aggregation_group_type_index"] === "number" ? "groups" : "users"

/** Every condition in words, one line each, or the one line saying no one is reached. */
export const conditionsWords = (draft: Draft): Array<string> =>
  draft.groups.length === 0
    ? ["No condition: no one gets the flag."]
    : draft.groups.map((group, index) => `Condition ${index + 1}: ${groupWords(group, subjectOf(draft))}.`)

/** The variant split in words: "control 50 %, test 50 %", or nothing for a flag without variants. */
export const variantsWords = (draft: Draft): string | undefined =>
  draft.variants.length === 0
    ? undefined
    : `Variants: ${draft.variants.map((variant) => `${variant.key} ${variant.rollout} %`).join(", ")}.`
