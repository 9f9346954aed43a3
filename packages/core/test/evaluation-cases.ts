import type { EvaluatedFlag, FlagResult } from "../src/evaluation/model.ts"
import { sdkPayload } from "../src/flag-evaluation/server-flags.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"

/**
 * The generated cases the differential tests evaluate, here and through a real server: flags with every
 * operator, variants with payloads and overrides, holdouts, mixed targeting, device bucketing, cohorts,
 * dependencies with cycles and missing flags, inactive and deleted flags; and people to evaluate them for.
 * Flags are numbered from 100 in the order made, and name each other by those ids.
 */

/** mulberry32: small, seeded, and good enough to spread cases. */
export const random = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Random = () => number
export const pick = <T>(next: Random, items: ReadonlyArray<T>): T => items[Math.floor(next() * items.length)]!
export const chance = (next: Random, p: number) => next() < p

const DAY = 86_400_000

/** Instants to evaluate at besides now: month ends and a leap day, where counting back months clamps. */
export const INSTANTS: ReadonlyArray<number | undefined> = [
  undefined, undefined, Date.parse("2024-03-31T12:00:00Z"), Date.parse("2024-02-29T23:30:00Z"),
  Date.parse("2025-12-31T00:30:00Z"), Date.parse("2025-05-31T08:00:00Z")
]

/**
 * Person property values, by key: text, numbers of both kinds, null, booleans, dates and versions. Dates
 * near a relative filter's bound stand half a day off it, since the bound is a whole number of days back
 * in UTC (`-3m` is 89 to 93 days, `-1y` 365 or 366): a date made at 92 days fell on the `-3m` bound
 * itself on days when three months back is exactly 92, and Hedgerow, evaluating a few milliseconds after
 * the SDK, saw the other side. 365.5 days is within a year only when the year back spans a 29 February.
 */
const personValues = (now: number): Readonly<Record<string, ReadonlyArray<unknown>>> => ({
  email: ["ann@example.com", "BOB@Example.COM", "carl@test.io", "dé@exämple.fr", "ÅSA@Example.com", "", "null"],
  plan: ["free", "pro", "Enterprise", null, true, "true", "FALSE"],
  age: [17, 30, 45.5, "30", "abc", null, "18.5", 0],
  score: [1.5, 2, "3.5", -1, "1e3", [1, 2], { a: 1 }],
  country: ["US", "us", "CA", "de", ["US"], "Us"],
  app_version: ["1.2.3", "1.10.0", "2.0.0-beta", "v1.2", "01.2.3", "1.2", "garbage", "0.0.9", "3.08"],
  signup: [
    new Date(now - 10 * DAY).toISOString(), new Date(now - 45 * DAY).toISOString(), "2020-06-01",
    new Date(now - 29.5 * DAY).toISOString(), new Date(now - 31.5 * DAY).toISOString(), new Date(now - 61 * DAY).toISOString(),
    new Date(now - 88 * DAY).toISOString(), new Date(now - 92.5 * DAY).toISOString(), new Date(now - 365.5 * DAY).toISOString(), new Date(now - 366.5 * DAY).toISOString(),
    "2024-01-15T10:00:00Z", "not a date", now - 3 * DAY, new Date(now - 3 * 3_600_000).toISOString(), true
  ],
  $browser: ["Chrome", "Firefox", "Safari"],
  $initial_browser: ["Chrome", "Edge"],
  tags: [["a", "b"], "a", 3]
})

const FILTER_VALUES: Readonly<Record<string, ReadonlyArray<unknown>>> = {
  exact: ["pro", ["pro", "free"], "true", true, ["US", "ca"], 30, 45.5, "30", ["a", "b"], null, [], "dé@exämple.fr", undefined],
  is_not: ["pro", ["US", "CA"], false, "false", 30, 1.5],
  is_set: ["is_set"],
  is_not_set: ["is_not_set"],
  icontains: ["example", "EXAMPLE", "@", "us", "null", "1", "åsa", undefined],
  not_icontains: ["example", "test", "d"],
  starts_with: ["ann", "B", "1.", "Ch"],
  not_starts_with: ["ann", "c"],
  ends_with: [".com", ".io", "3"],
  not_ends_with: [".com", "o"],
  regex: ["^ann", "@example\\.com$", "[0-9]+", "(invalid", "é", "^$", "", "\\d{2,}", "pro|free", "(?i)bob"],
  not_regex: ["^ann", "\\.io$", "[", "^1\\."],
  gt: ["18", "30", "abc", 25, "1.5", "1e2", undefined],
  gte: ["30", "2", "US"],
  lt: ["18", "100", "m", 2.5],
  lte: ["30", "45.5", "0"],
  is_date_before: ["-30d", "-1h", "-2w", "-3m", "-1y", "2023-01-01", "2024-06-01T00:00:00Z", "garbage", "-10000d"],
  is_date_after: ["-30d", "-7d", "-6h", "2021-01-01", "2025-13-45", "-1m"],
  semver_eq: ["1.2.3", "1.2", "v1.2.0", "2.0.0"],
  semver_neq: ["1.2.3", "1.10"],
  semver_gt: ["1.2.3", "1.9.9", "0.1"],
  semver_gte: ["1.10.0", "2"],
  semver_lt: ["2.0.0", "1.2.4"],
  semver_lte: ["1.2.3", "01.2"],
  semver_tilde: ["1.2.0", "1.2", "0.0.9"],
  semver_caret: ["1.0.0", "0.2.0", "0.0.9", "1"],
  semver_wildcard: ["1.*", "1.2.*", "2.*", "*", "1.*.*", "3.08.*"],
  icontains_multi: [["example", "test"]],
  not_icontains_multi: [["example"]],
  between: [[18, 40]],
  is_date_exact: ["2020-06-01"],
  made_up: ["x"]
}

const OPERATORS = Object.keys(FILTER_VALUES)
const KEYS_BY_OPERATOR: Readonly<Record<string, ReadonlyArray<string>>> = {
  semver: ["app_version", "app_version", "age", "missing"],
  date: ["signup", "signup", "email", "missing"],
  text: ["email", "email", "country", "plan", "missing"],
  any: ["email", "plan", "age", "score", "country", "app_version", "$browser", "$initial_browser", "tags", "missing"]
}
const keysFor = (operator: string) =>
  operator.startsWith("semver")
    ? KEYS_BY_OPERATOR["semver"]!
    : operator.includes("date")
    ? KEYS_BY_OPERATOR["date"]!
    : /contains|with|regex/.test(operator)
    ? KEYS_BY_OPERATOR["text"]!
    : KEYS_BY_OPERATOR["any"]!

/**
 * Dynamic cohorts posthog-node receives, as PostHog's API writes them and as cohorts stored before it
 * (`property` groups, no `negation`); cohorts 4 and 9 are static (lists of distinct ids, no definition).
 * They nest, negate cohorts in AND and in OR groups (which the service reads differently), and name the
 * static ones, directly and through each other.
 */
export const COHORTS: ReadonlyMap<string, JsonRecord> = new Map<string, JsonRecord>([
  ["1", {
    type: "OR",
    values: [
      { type: "AND", values: [{ key: "email", type: "person", operator: "icontains", value: "example" }] },
      { type: "AND", values: [{ key: "plan", type: "person", operator: "exact", value: ["pro"] }] }
    ]
  }],
  ["2", {
    type: "AND",
    values: [{
      type: "AND",
      values: [
        { key: "country", type: "person", operator: "exact", value: "US", negation: true },
        { key: "id", type: "cohort", value: 1 }
      ]
    }]
  }],
  ["3", { type: "property", values: [{ key: "age", type: "person", operator: "gt", value: "18" }] }],
  ["5", { type: "OR", values: [{ key: "id", type: "cohort", value: 4 }, { key: "plan", type: "person", value: "free" }] }],
  ["6", {
    type: "OR",
    values: [
      { type: "AND", values: [{ key: "id", type: "cohort", value: 1, negation: true }, { key: "country", type: "person", operator: "exact", value: "US", negation: false }] },
      { type: "OR", values: [{ key: "id", type: "cohort", value: 3, negation: true }, { key: "plan", type: "person", operator: "is_not", value: "free", negation: false }] }
    ]
  }],
  ["7", {
    type: "AND",
    values: [
      { type: "OR", values: [{ key: "email", type: "person", operator: "icontains", value: "@", negation: false }, { key: "id", type: "cohort", value: 9, negation: true }] },
      { type: "AND", values: [{ key: "id", type: "cohort", value: 6, negation: false }, { key: "age", type: "person", operator: "is_set", negation: false }] }
    ]
  }],
  ["8", { type: "AND", values: [{ type: "OR", values: [{ key: "id", type: "cohort", value: 4, negation: true }, { key: "id", type: "cohort", value: 7, negation: false }] }] }]
])

/** The static cohorts the flags name, directly or through the dynamic ones. */
export const STATIC_COHORTS: ReadonlyArray<number> = [4, 9]


const flagOf = (id: number, key: string, filters: JsonRecord, extra: Partial<EvaluatedFlag> = {}): EvaluatedFlag =>
  ({ ...storedFlag({ id: id as FeatureFlagId, key, filters }), ...extra })

interface Pools {
  /** Flags others depend on: simple ones, decided for everyone, some multivariate. */
  readonly targets: ReadonlyArray<number>
  readonly all: ReadonlyArray<number>
  readonly variants: ReadonlyMap<number, ReadonlyArray<string>>
}

const propertyOf = (next: Random, type: string, groupTypeIndex: number | null, pools: Pools): JsonRecord => {
  const roll = next()
  if (roll < 0.08) {
    return { key: "id", type: "cohort", value: pick(next, [1, 2, 3, 4, 5, 6, 7, 8, 9, "1"]), ...(chance(next, 0.3) ? { operator: pick(next, ["in", "not_in"]) } : {}) }
  }
  if (roll < 0.2) {
    const id = chance(next, 0.08) ? 99_999 : chance(next, 0.75) ? pick(next, pools.targets) : pick(next, pools.all)
    const variants = pools.variants.get(id) ?? []
    return {
      key: String(id),
      type: "flag",
      operator: "flag_evaluates_to",
      value: variants.length > 0 && chance(next, 0.4) ? pick(next, variants) : chance(next, 0.7)
    }
  }
  const operator = pick(next, OPERATORS)
  return comparisonOf(next, operator, pick(next, FILTER_VALUES[operator]!), type, groupTypeIndex)
}

/** A comparison on the operator's usual key, or on any of its keys when `anyKey`. */
const comparisonOf = (next: Random, operator: string, value: unknown, type: string, groupTypeIndex: number | null, anyKey = true): JsonRecord => ({
  key: anyKey ? pick(next, keysFor(operator)) : keysFor(operator)[0]!,
  type,
  ...(groupTypeIndex === null ? {} : { group_type_index: groupTypeIndex }),
  ...(operator === "exact" && chance(next, 0.3) ? {} : { operator }),
  ...(operator === "is_set" || operator === "is_not_set" ? {} : { value })
})

const variantSets = [["control", "test"], ["a", "b", "c"], ["only"]] as const
const shares = (count: number) => (count === 3 ? [50, 30, 20] : count === 2 ? [50, 50] : [100])

const payloadsFor = (next: Random, variants: ReadonlyArray<string>, n: number) =>
  Object.fromEntries(
    (variants.length > 0 ? variants : ["true"]).filter(() => chance(next, 0.7)).map((key) => [
      key,
      pick(next, [JSON.stringify({ key, n }), JSON.stringify(key), "123", "not json", JSON.stringify([1, 2])])
    ])
  )

const multivariateOf = (variants: ReadonlyArray<string>) =>
  variants.length === 0
    ? {}
    : { multivariate: { variants: variants.map((key, i) => ({ key, name: key, rollout_percentage: shares(variants.length)[i] })) } }

/**
 * Dependency targets first (simple flags), then one flag per operator and filter value (a single
 * property, so each operator is decided often), then flags in dependency chains and cycles, then
 * flags mixing everything at random.
 */
export const generateFlags = (next: Random): ReadonlyArray<EvaluatedFlag> => {
  const flags: Array<EvaluatedFlag> = []
  const variants = new Map<number, ReadonlyArray<string>>()
  let id = 100
  const add = (filters: JsonRecord, extra: Partial<EvaluatedFlag> = {}) => {
    flags.push(flagOf(id, `flag-${id}`, filters, extra))
    return id++
  }
  const targets: Array<number> = []
  for (let i = 0; i < 12; i++) {
    const keys = chance(next, 0.5) ? [...pick(next, variantSets)] : []
    const target = add({
      groups: [{ properties: [], rollout_percentage: pick(next, [100, 50, 0, null]) }],
      ...multivariateOf(keys),
      payloads: payloadsFor(next, keys, i)
    }, {
      active: i % 6 !== 5,
      ensure_experience_continuity: i % 5 === 4,
      ...(i % 4 === 3 ? { bucketing_identifier: "device_id" } : {})
    })
    variants.set(target, keys)
    targets.push(target)
  }
  // Half of them fall through to a second condition with another override, so that a first condition
  // the SDK cannot decide, which it passes over for the next, shows whenever Hedgerow decides otherwise.
  for (const operator of OPERATORS) {
    for (const value of FILTER_VALUES[operator]!) {
      const group = chance(next, 0.15) ? 0 : null
      const fallThrough = chance(next, 0.5)
      const keys = fallThrough ? ["a", "b", "c"] : chance(next, 0.3) ? [...pick(next, variantSets)] : []
      const first = {
        properties: [comparisonOf(next, operator, value, group === null ? "person" : "group", group, chance(next, 0.4))],
        rollout_percentage: pick(next, [null, 100, 60])
      }
      variants.set(add({
        groups: fallThrough ? [{ ...first, variant: "a" }, { properties: [], rollout_percentage: 100, variant: "b" }] : [first],
        ...(group === null ? {} : { aggregation_group_type_index: group }),
        ...multivariateOf(keys),
        payloads: payloadsFor(next, keys, id)
      }), keys)
    }
  }
  for (const target of targets) {
    for (const value of [true, false, ...(variants.get(target) ?? [])]) {
      add({
        groups: [
          { properties: [{ key: String(target), type: "flag", operator: "flag_evaluates_to", value }], rollout_percentage: 100, variant: "a" },
          { properties: [], rollout_percentage: 100, variant: "b" }
        ],
        ...multivariateOf(["a", "b"])
      })
    }
  }
  // A chain (c depends on b, b on a), a cycle (x and y), a flag on itself, one on a deleted flag, and a
  // chain through a flag that names itself (which the walk passes over below the top).
  const dependsOn = (target: number, value: unknown = true) => ({
    groups: [{ properties: [{ key: String(target), type: "flag", operator: "flag_evaluates_to", value }], rollout_percentage: 100 }, { properties: [], rollout_percentage: 40 }]
  })
  const a = add({ groups: [{ properties: [comparisonOf(next, "icontains", "example", "person", null)], rollout_percentage: 80 }] })
  const b = add(dependsOn(a))
  add(dependsOn(b, false))
  add(dependsOn(id + 1))
  add(dependsOn(id - 1))
  add(dependsOn(id))
  const deleted = add({ groups: [{ properties: [], rollout_percentage: 100 }] }, { deleted: true })
  add(dependsOn(deleted))
  const selfish = add({
    groups: [{ properties: [{ key: String(id), type: "flag", operator: "flag_evaluates_to", value: true }], rollout_percentage: 100 }, { properties: [], rollout_percentage: 100 }]
  })
  const middle = add(dependsOn(selfish))
  add({ groups: [{ properties: [{ key: String(middle), type: "flag", operator: "flag_evaluates_to", value: false }], rollout_percentage: 100 }] })
  const all = [...flags.map((flag) => flag.id as number)]
  const pools: Pools = { targets, all: [...all, id, id + 5, id + 30], variants }
  for (let i = 0; i < 60; i++) {
    const keys = chance(next, 0.4) ? [...pick(next, variantSets)] : []
    const aggregation = chance(next, 0.2) ? pick(next, [0, 1, 3]) : null
    const groups = Array.from({ length: pick(next, [0, 1, 2, 2, 3, 3]) }, () => {
      const mixed = aggregation === null && chance(next, 0.1) ? pick(next, [0, 1]) : undefined
      const groupIndex = mixed ?? aggregation
      return {
        properties: Array.from({ length: pick(next, [0, 1, 1, 2]) }, () =>
          propertyOf(next, groupIndex === null ? "person" : "group", groupIndex, pools)),
        rollout_percentage: pick(next, [null, 100, 0, 30, 50, 75, 99, 12.5]),
        ...(keys.length > 0 && chance(next, 0.4) ? { variant: pick(next, [...keys, "unknown"]) } : {}),
        ...(mixed === undefined ? {} : { aggregation_group_type_index: mixed }),
        ...(aggregation === null && mixed === undefined && chance(next, 0.05) ? { aggregation_group_type_index: null } : {})
      }
    })
    const filters = {
      groups,
      ...(aggregation === null ? {} : { aggregation_group_type_index: aggregation }),
      ...multivariateOf(keys),
      payloads: payloadsFor(next, keys, i),
      ...(chance(next, 0.06) ? { holdout: { id: pick(next, [7, 8]), exclusion_percentage: pick(next, [10, 50, 100, 0]) } } : {}),
      ...(chance(next, 0.25) ? { early_exit: true } : {})
    }
    variants.set(add(chance(next, 0.03) ? {} : filters, {
      active: !chance(next, 0.08),
      deleted: chance(next, 0.04),
      ensure_experience_continuity: chance(next, 0.04),
      ...(chance(next, 0.1) ? { bucketing_identifier: "device_id" } : {})
    }), keys)
  }
  return flags
}

/**
 * The project's group types, as the definitions' `group_type_mapping` names them: flags aggregate by
 * indexes 0, 1 and 3, and index 3 has no group type, so flags on it have none to read.
 */
export const GROUP_TYPES: Readonly<Record<string, string>> = { "0": "company", "1": "team" }

export interface Person {
  readonly distinct_id: string
  readonly person_properties: Record<string, unknown>
  readonly groups: Record<string, string>
  readonly group_properties: Record<string, Record<string, unknown>>
  /** The static cohorts whose list holds the person's distinct id. */
  readonly cohort_members: ReadonlyArray<number>
}

export const generatePerson = (next: Random, index: number, now: number): Person => {
  const values = personValues(now)
  const person_properties: Record<string, unknown> = {}
  for (const [key, choices] of Object.entries(values)) {
    if (chance(next, 0.8)) person_properties[key] = pick(next, choices)
  }
  if (chance(next, 0.5)) person_properties["$device_id"] = `device-${Math.floor(next() * 1000)}`
  const groups: Record<string, string> = {}
  const group_properties: Record<string, Record<string, unknown>> = {}
  for (const type of Object.values(GROUP_TYPES)) {
    if (!chance(next, 0.6)) continue
    groups[type] = pick(next, ["acme", "globex", "initech", ""])
    const properties: Record<string, unknown> = { $group_key: groups[type] }
    for (const [key, choices] of Object.entries(values)) {
      if (chance(next, 0.3)) properties[key] = pick(next, choices)
    }
    group_properties[type] = properties
  }
  const cohort_members = STATIC_COHORTS.filter(() => chance(next, 0.5))
  return { distinct_id: `person_${index}_${Math.floor(next() * 1e6)}`, person_properties, groups, group_properties, cohort_members }
}

/** The payload as the SDK lists it among a person's payloads: absent when off or none. */
export const sdkPayloadOf = (result: FlagResult): unknown =>
  result.enabled ? sdkPayload(result.payload) ?? undefined : undefined
