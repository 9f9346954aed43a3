import { type DraftProperty, draftPropertyOf, propertyFilterOf, recordsOf } from "../flags/draft.ts"
import { isRecord } from "../flags/flag.tsx"
import type { Cohort } from "./cohort.ts"

/**
 * A cohort's editable parts as the form holds them, read from and written back into the API's
 * `filters`: `{properties: {type: AND|OR, values: [group, ...]}}`, each group `{type, values: [filter, ...]}`.
 * The form edits person property filters with the flag form's editor; any other filter (on another cohort,
 * on events) and any other key is kept as it came, so a save never drops it. The API decides every rule.
 */

type Json = Record<string, unknown>

export type Match = "AND" | "OR"

export interface CohortGroup {
  readonly match: Match
  readonly properties: ReadonlyArray<DraftProperty>
  /** Filters the form does not edit, kept after its own. */
  readonly kept: ReadonlyArray<Json>
  readonly json: Json
}

export interface CohortDraft {
  readonly name: string
  readonly description: string
  readonly isStatic: boolean
  /** Whether a person must match every group or any one. */
  readonly match: Match
  readonly groups: ReadonlyArray<CohortGroup>
  /** Entries at the top that are not groups, kept after the groups. */
  readonly kept: ReadonlyArray<Json>
  /** A new static cohort's first members, one distinct id a line. */
  readonly distinctIds: string
  readonly filters: Json
}

const matchOf = (value: unknown): Match => value === "AND" ? "AND" : "OR"

const isGroup = (value: Json): boolean => Array.isArray(value["values"])

const isPersonFilter = (value: Json): boolean => value["type"] === "person" || value["type"] === undefined

export const newCohortGroup = (): CohortGroup => ({ match: "AND", properties: [], kept: [], json: {} })

export const emptyCohortDraft = (): CohortDraft => ({
  name: "",
  description: "",
  isStatic: false,
  match: "OR",
  groups: [newCohortGroup()],
  kept: [],
  distinctIds: "",
  filters: {}
})

export const cohortDraftOf = (cohort: Cohort): CohortDraft => {
  const filters: Json = isRecord(cohort.filters) ? cohort.filters : {}
  const top = isRecord(filters["properties"]) ? filters["properties"] : {}
  const entries = recordsOf(top["values"])
  return {
    name: cohort.name ?? "",
    description: cohort.description,
    isStatic: cohort.is_static,
    match: matchOf(top["type"]),
    groups: entries.filter(isGroup).map((group): CohortGroup => {
      const values = recordsOf(group["values"])
      return {
        match: matchOf(group["type"]),
        properties: values.filter(isPersonFilter).map(draftPropertyOf),
        kept: values.filter((value) => !isPersonFilter(value)),
        json: group
      }
    }),
    kept: entries.filter((entry) => !isGroup(entry)),
    distinctIds: "",
    filters
  }
}

/** The filters to send: the draft written over what came. */
const cohortFiltersOf = (draft: CohortDraft): Json => {
  const top = isRecord(draft.filters["properties"]) ? draft.filters["properties"] : {}
  return {
    ...draft.filters,
    properties: {
      ...top,
      type: draft.match,
      values: [
        ...draft.groups.map((group) => ({
          ...group.json,
          type: group.match,
          values: [...group.properties.map(propertyFilterOf), ...group.kept]
        })),
        ...draft.kept
      ]
    }
  }
}

/** Distinct ids as typed: one a line (or comma-separated), trimmed, empty ones left out. */
export const distinctIdsOf = (text: string): Array<string> =>
  text.split(/[\n,]/).map((id) => id.trim()).filter((id) => id !== "")

/** What a save sends: a static cohort has no filters to edit; a new static one may carry its first members. */
export const cohortFieldsOf = (draft: CohortDraft, isNew: boolean) => ({
  name: draft.name,
  description: draft.description,
  ...(draft.isStatic
    ? isNew ? { is_static: true, _create_static_person_ids: distinctIdsOf(draft.distinctIds) } : {}
    : { ...(isNew ? { is_static: false } : {}), filters: cohortFiltersOf(draft) })
})
