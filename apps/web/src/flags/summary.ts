import type { Drafted } from "./draft.ts"
import { conditionWords, groupsOf, type SummaryNames, subjectOf, superGroupsOf, variantsOf } from "./release-words.ts"

/**
 * A flag's release in one line of words, as the list and the flag's page show it: "Off", "100 % of
 * everyone", "30 % of users where email contains "@acme.com"", "3 variants 34/33/33 · 2 conditions".
 * Its parts are worded as everywhere else (release-words.ts).
 */

type Json = Record<string, unknown>

/** The conditions in words, joined by "or"; none at all match no one. */
const conditionsWords = (groups: ReadonlyArray<Json>, subject: string, names: SummaryNames): string =>
  groups.length === 0 ? "no one" : groups.map((group) => conditionWords(group, subject, names)).join("; or ")

const releaseWords = (flag: Drafted, names: SummaryNames): string => {
  if (!flag.active) return "Off"
  const subject = subjectOf(flag.filters, names)
  const groups = groupsOf(flag.filters)
  const superGroups = superGroupsOf(flag.filters)
  const variants = variantsOf(flag.filters)
  const first = superGroups.length === 0 ? "" : `First ${conditionsWords(superGroups, subject, names)}, then `
  if (variants.length === 0) return `${first}${conditionsWords(groups, subject, names)}`
  // A variant split is a multivariate flag's headline; its conditions are counted when more than one.
  const shares = variants.map((variant) => typeof variant["rollout_percentage"] === "number" ? variant["rollout_percentage"] : 0)
  const split = `${variants.length} variant${variants.length === 1 ? "" : "s"} ${shares.join("/")}`
  const conditions = groups.length === 1 ? conditionWords(groups[0]!, subject, names) : `${groups.length} conditions`
  return `${first}${split} · ${conditions}`
}

/** The release in words, starting with a capital. */
export const summaryOf = (flag: Drafted, names: SummaryNames = {}): string => {
  const words = releaseWords(flag, names)
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}
