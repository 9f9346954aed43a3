import { type Drafted, type DraftGroup, type DraftProperty, draftOf } from "./draft.ts"
import { OPERATOR_WORDS } from "./operators.ts"

/**
 * A flag's release in one line of words, as the list and the flag's page show it: "Off", "100 % of
 * everyone", "30 % of users where email contains @acme.com", "3 variants 34/33/33 · 2 conditions". It
 * reads the filters as the form does (draftOf), and decides nothing: evaluation stays the API's.
 */

/** Names the page knows, for what the filters name by id; an id it does not know is shown as the id. */
export interface SummaryNames {
  /** Cohort names by id. */
  readonly cohorts?: ReadonlyMap<number, string>
  /** What a group type's members are called (its plural name, else its name with "(s)"), by group type index. */
  readonly groupTypes?: ReadonlyMap<number, string>
  /** Flag keys by id, for conditions on another flag. */
  readonly flags?: ReadonlyMap<number, string>
}

/** `filters.aggregation_group_type_index`, when the flag is rolled out by groups rather than persons. */
const groupTypeIndexOf = (filters: Record<string, unknown>): number | undefined => {
  const index = filters["aggregation_group_type_index"]
  return typeof index === "number" ? index : undefined
}

const idOf = (value: string): number | undefined => /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined

const operatorWords = (operator: string): string =>
  (OPERATOR_WORDS as Record<string, string | undefined>)[operator] ?? operator

/** One property filter in words: "email contains @acme.com", "in cohort Beta", "flag new-nav is true". */
const propertyWords = (property: DraftProperty, names: SummaryNames): string => {
  if (property.type === "cohort") {
    const id = idOf(property.value)
    const name = id === undefined ? undefined : names.cohorts?.get(id)
    return `${property.operator === "not_in" ? "not in" : "in"} cohort ${name ?? property.value}`
  }
  if (property.type === "flag") {
    const id = idOf(property.key)
    return `flag ${(id === undefined ? undefined : names.flags?.get(id)) ?? property.key} is ${property.value}`
  }
  const operator = operatorWords(property.operator)
  return property.value === "" || property.operator === "is_set" || property.operator === "is_not_set"
    ? `${property.key} ${operator}`
    : `${property.key} ${operator} ${property.value}`
}

/** Who a condition picks from: users, or the members of the flag's group type. */
const subjectOf = (groupTypeIndex: number | undefined, names: SummaryNames): string =>
  groupTypeIndex === undefined ? "users" : names.groupTypes?.get(groupTypeIndex) ?? `groups of type ${groupTypeIndex}`

/** One condition in words: its rollout, of whom, where what holds, and the variant it forces if any. */
const conditionWords = (group: DraftGroup, subject: string, names: SummaryNames): string => {
  const cohorts = group.properties.filter((property) => property.type === "cohort").map((property) => propertyWords(property, names))
  const others = group.properties.filter((property) => property.type !== "cohort").map((property) => propertyWords(property, names))
  const who = group.properties.length === 0 && subject === "users" ? "everyone" : subject
  const variant = group.json["variant"]
  return [
    `${group.rollout} % of ${who}`,
    ...cohorts.length === 0 ? [] : [` ${cohorts.join(" and ")}`],
    ...others.length === 0 ? [] : [` where ${others.join(" and ")}`],
    ...typeof variant === "string" && variant !== "" ? [` get ${variant}`] : []
  ].join("")
}

/** The conditions in words, joined by "or"; none at all match no one. */
const conditionsWords = (groups: ReadonlyArray<DraftGroup>, subject: string, names: SummaryNames): string =>
  groups.length === 0 ? "no one" : groups.map((group) => conditionWords(group, subject, names)).join("; or ")

/** The opt-in conditions evaluated before the others (`super_groups`), read as the form reads groups. */
const superGroupsOf = (flag: Drafted): ReadonlyArray<DraftGroup> => {
  const superGroups = flag.filters["super_groups"]
  if (!Array.isArray(superGroups) || superGroups.length === 0) return []
  return draftOf({ ...flag, filters: { groups: superGroups } }).groups
}

const releaseWords = (flag: Drafted, names: SummaryNames): string => {
  if (!flag.active) return "Off"
  const draft = draftOf(flag)
  const subject = subjectOf(groupTypeIndexOf(flag.filters), names)
  const superGroups = superGroupsOf(flag)
  const first = superGroups.length === 0 ? "" : `First ${conditionsWords(superGroups, subject, names)}, then `
  if (draft.variants.length === 0) return `${first}${conditionsWords(draft.groups, subject, names)}`
  // A variant split is a multivariate flag's headline; its conditions are counted when more than one.
  const split = `${draft.variants.length} variant${draft.variants.length === 1 ? "" : "s"} ${draft.variants.map((variant) => variant.rollout).join("/")}`
  const conditions = draft.groups.length === 1 ? conditionWords(draft.groups[0]!, subject, names) : `${draft.groups.length} conditions`
  return `${first}${split} · ${conditions}`
}

/** The release in words, starting with a capital. */
export const summaryOf = (flag: Drafted, names: SummaryNames = {}): string => {
  const words = releaseWords(flag, names)
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}
