import { DAY_MS } from "@hedgerow/core"
import type { FlagOptions } from "@hedgerow/http-server"
import { groupProperty, person } from "./property-condition.ts"

/** The group type the group flags aggregate by; the first a project names, so its index is 0. */
export const GROUP_TYPE = "company"
const GROUP_TYPE_INDEX = 0

const DOMAINS = ["example.com", "gmail.com", "acme.io", "mail.example.org"]
const COUNTRIES = ["US", "CA", "GB", "DE", "FR", "NL", "IN", "BR", "JP", "AU"]
const PLANS = ["free", "pro", "team", "enterprise"]
const INDUSTRIES = ["software", "finance", "retail", "health", "education"]
const COMPANIES = 200
const FIRST_SIGN_UP = Date.UTC(2022, 0, 1)

/**
 * A value in 0..n-1 that looks random across `i` and differs per `salt`, the same on every run: the
 * people and their companies are the same whenever the section runs.
 */
const spread = (i: number, salt: number, n: number) => {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca77)
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d)
  return ((h ^ (h >>> 13)) >>> 0) % n
}

/** One of `values`, picked by `spread`. */
const pick = <A>(values: ReadonlyArray<A>, i: number, salt: number) => values[spread(i, salt, values.length)]!

/** One condition on a person's own properties, each a rule a team writes: a domain, a market, a plan, an age, a version. */
const PERSON_CONDITIONS = [
  person("email", "icontains", "@example.com"),
  person("country", "exact", ["US", "CA"]),
  person("plan", "exact", ["pro", "team", "enterprise"]),
  person("plan", "is_not", "free"),
  person("age", "gte", "21"),
  person("age", "lt", "40"),
  person("signed_up_at", "is_date_before", "2024-01-01"),
  person("app_version", "semver_gte", "2.3.0"),
  person("email", "not_icontains", "gmail.com"),
  person("beta", "exact", ["true"]),
  person("country", "regex", "^(DE|FR|NL)$"),
  person("email", "is_set", "is_set")
]

/** One condition on the properties of the person's company. */
const GROUP_CONDITIONS = [
  groupProperty(GROUP_TYPE_INDEX, "plan", "exact", ["enterprise"]),
  groupProperty(GROUP_TYPE_INDEX, "employees", "gt", "500"),
  groupProperty(GROUP_TYPE_INDEX, "industry", "exact", ["software", "finance"])
]

const ROLLOUTS = [100, 50, 20, 80, 10, 100, 35]

/** Which kind a flag is: one in ten multivariate, one in ten on a company, the rest boolean on the person. */
const kindOf = (i: number) => i % 10 === 3 ? "multivariate" : i % 10 === 7 ? "group" : "person"

/** The filters of flag `i`: one condition group, one condition in it, and a rollout. */
const filtersOf = (i: number) => {
  const rollout_percentage = ROLLOUTS[i % ROLLOUTS.length]!
  switch (kindOf(i)) {
    case "group":
      return {
        aggregation_group_type_index: GROUP_TYPE_INDEX,
        groups: [{ properties: [GROUP_CONDITIONS[i % GROUP_CONDITIONS.length]], rollout_percentage }]
      }
    case "multivariate":
      return {
        groups: [{ properties: [PERSON_CONDITIONS[i % PERSON_CONDITIONS.length]], rollout_percentage }],
        multivariate: {
          variants: [
            { key: "control", rollout_percentage: 34 },
            { key: "test-a", rollout_percentage: 33 },
            { key: "test-b", rollout_percentage: 33 }
          ]
        }
      }
    case "person":
      return { groups: [{ properties: [PERSON_CONDITIONS[i % PERSON_CONDITIONS.length]], rollout_percentage }] }
  }
}

/** A flag as the API creates it. */
export interface WorkloadFlag {
  readonly key: string
  readonly name: string
  readonly filters: ReturnType<typeof filtersOf>
}

/** `count` flags of the three kinds, with how many there are of the two rarer ones. */
export const workloadFlags = (count: number) => {
  const flags: ReadonlyArray<WorkloadFlag> = Array.from({ length: count }, (_, i) => ({
    key: `embedded-${kindOf(i)}-${i}`,
    name: `Embedded ${kindOf(i)} flag ${i}`,
    filters: filtersOf(i)
  }))
  const counted = (kind: ReturnType<typeof kindOf>) => flags.filter((_, i) => kindOf(i) === kind).length
  return { flags, multivariate: counted("multivariate"), group: counted("group") }
}

const companyProperties = (c: number) => ({
  plan: pick(PLANS, c, 11),
  employees: 1 + spread(c, 12, 5_000),
  industry: pick(INDUSTRIES, c, 13)
})

/**
 * What an application knows of a person when it reads their flags, every part given: it is what both
 * openHedgerow's `FlagOptions` and posthog-node's options take.
 */
export interface PersonOptions extends FlagOptions {
  readonly personProperties: Readonly<Record<string, unknown>>
  readonly groups: Readonly<Record<string, string>>
  readonly groupProperties: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

/** A person as an application reads flags for one: the distinct id, and what it knows of them. */
export type WorkloadPerson = readonly [distinctId: string, options: PersonOptions]

/**
 * `count` people, each with every property the flags read (so that no condition is left undecided for
 * want of one) and a company of 200, its properties with it, as an application passes them to a read.
 */
export const workloadPeople = (count: number): ReadonlyArray<WorkloadPerson> =>
  Array.from({ length: count }, (_, j) => {
    const company = spread(j, 10, COMPANIES)
    return [`person-${j}`, {
      personProperties: {
        email: `person${j}@${pick(DOMAINS, j, 1)}`,
        country: pick(COUNTRIES, j, 2),
        plan: pick(PLANS, j, 3),
        age: 18 + spread(j, 4, 53),
        signed_up_at: new Date(FIRST_SIGN_UP + spread(j, 5, 1_400) * DAY_MS).toISOString().slice(0, 10),
        app_version: `${1 + spread(j, 6, 3)}.${spread(j, 7, 10)}.${spread(j, 8, 5)}`,
        beta: spread(j, 9, 2) === 0
      },
      groups: { [GROUP_TYPE]: `company-${company}` },
      groupProperties: { [GROUP_TYPE]: companyProperties(company) }
    }]
  })
