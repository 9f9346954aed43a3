import * as Effect from "effect/Effect"
import { Flag } from "effect/cli"
import { emit, table } from "../output.ts"
import { flag } from "./flags-resource.ts"

/** A flag of the definitions; its filters are read only as far as the table shows them. */
interface Definition {
  readonly id: number
  readonly key: string
  readonly active: boolean
  readonly filters: { readonly [field: string]: unknown }
}

interface Definitions {
  readonly flags: ReadonlyArray<Definition>
  readonly group_type_mapping: { readonly [index: string]: string }
  readonly cohorts: { readonly [id: string]: unknown }
}

const listOf = (value: unknown): ReadonlyArray<{ readonly [field: string]: unknown }> =>
  Array.isArray(value) ? value.filter((item) => typeof item === "object" && item !== null) : []

/** A condition without a rollout percentage lets everyone it matches in. */
const percent = (value: unknown) => `${typeof value === "number" ? value : 100}%`

/** A release condition as `plan+country: 50%` (the properties it asks about, cohorts by id), or `50%` without any. */
const conditionSummary = (condition: { readonly [field: string]: unknown }) => {
  const names = listOf(condition["properties"]).map((property) =>
    property["type"] === "cohort" ? `cohort ${String(property["value"])}` : String(property["key"])
  )
  const rollout = percent(condition["rollout_percentage"])
  return names.length === 0 ? rollout : `${names.join("+")}: ${rollout}`
}

/** Items joined by commas; none is an empty cell. */
const joined = (items: ReadonlyArray<string>) => items.length === 0 ? null : items.join(", ")

/**
 * One row per flag: how many release conditions it has and, for each, what it asks about and its
 * rollout; its variants with theirs; the group type it aggregates by (none: persons).
 */
const row = (definitions: Definitions) => (flag: Definition) => {
  const conditions = listOf(flag.filters["groups"])
  const multivariate = flag.filters["multivariate"]
  const variants = listOf(typeof multivariate === "object" && multivariate !== null ? (multivariate as { variants?: unknown }).variants : undefined)
  const index = flag.filters["aggregation_group_type_index"]
  return {
    id: flag.id,
    key: flag.key,
    active: flag.active,
    conditions: conditions.length,
    rollout: joined(conditions.map(conditionSummary)),
    variants: joined(variants.map((variant) => `${String(variant["key"])}: ${percent(variant["rollout_percentage"])}`)),
    group_type: typeof index === "number" ? definitions.group_type_mapping[String(index)] ?? String(index) : null
  }
}

const COLUMNS = ["id", "key", "active", "conditions", "rollout", "variants", "group_type"]

const render = (definitions: Definitions) => {
  const cohorts = Object.keys(definitions.cohorts).length
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`
  const footer = count(definitions.flags.length, "flag") + (cohorts === 0 ? "" : `, ${count(cohorts, "cohort")}`)
  return `${table(definitions.flags.map(row(definitions)), COLUMNS)}\n${footer}`
}

/** What a server-side SDK polls to evaluate the project's flags locally, read with the personal key. */
export const definitions = flag.onAll("definitions", {
  description: "The project's flag definitions for local evaluation (what server-side SDKs poll): a table, or the whole body with --json",
  flags: {
    sendCohorts: Flag.Boolean("send-cohorts").pipe(
      Flag.withDescription("Also send the definitions of the dynamic cohorts the flags name"),
      Flag.withDefault(false)
    )
  },
  run: ({ client, at, values, json }) =>
    client.flagDefinitions.projectLocalEvaluation({
      params: at,
      query: values.sendCohorts ? { send_cohorts: "true" } : {},
      headers: {}
    }).pipe(
      // Without If-None-Match the answer is never 304.
      Effect.flatMap((answer) => answer === undefined ? Effect.die("304 to a request without If-None-Match") : Effect.succeed(answer)),
      Effect.flatMap(emit(json, render))
    )
})
