import { type ListQuery, QueryText } from "../shared/page.ts"
import { MAX_SERIAL, type ProjectId } from "../shared/ids.ts"
import { type Timestamp, timestampFromDate } from "../shared/time.ts"
import { Schema } from "effect"
import { STALE_AFTER_DAYS } from "./computed.ts"
import { FLAG_ORDER_FIELDS, type FlagListFilter, type FlagOrderField } from "./repository.ts"

/** The flag list's query parameters as they arrive (posthog-behaviour.md §4 names). */
export interface FlagListQuery extends ListQuery {
  readonly search?: string | undefined
  readonly type?: string | undefined
  readonly active?: string | undefined
  readonly created_by_id?: string | undefined
  readonly tags?: string | undefined
  readonly order?: string | undefined
}

export const FlagListQueryFields = {
  search: Schema.optionalKey(QueryText),
  type: Schema.optionalKey(QueryText),
  active: Schema.optionalKey(QueryText),
  created_by_id: Schema.optionalKey(QueryText),
  tags: Schema.optionalKey(QueryText),
  order: Schema.optionalKey(QueryText)
}

/** What the repository is asked, or that nothing can match (PostHog would match nothing, or fail). */
export type ListPlan = { readonly _tag: "Query"; readonly filter: FlagListFilter } | { readonly _tag: "Empty" }

const DAY_MS = 24 * 60 * 60 * 1000

/** Stored text never holds NUL (writes refuse it, and PostgreSQL text cannot), so such a value matches nothing. */
const holdsNul = (text: string) => text.includes("\u0000")

/**
 * `tags` is a JSON list of names; anything else is ignored, as PostHog ignores what it cannot parse.
 * `[]` when names were given but none could match.
 */
const tagsOf = (text: string | undefined): ReadonlyArray<string> | null => {
  if (text === undefined) return null
  try {
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) return null
    const names = parsed.filter((tag): tag is string => typeof tag === "string")
    return names.length === 0 ? null : names.filter((name) => !holdsNul(name))
  } catch {
    return null
  }
}

/** `order`: one of the sortable fields, `-` for descending; anything else keeps the default `-created_at`. */
const orderOf = (text: string | undefined): FlagListFilter["order"] => {
  const descending = text?.startsWith("-") ?? true
  const field = text?.replace(/^-/, "")
  return (FLAG_ORDER_FIELDS as ReadonlyArray<string>).includes(field ?? "")
    ? { field: field as FlagOrderField, descending }
    : { field: "created_at", descending: true }
}

export const listPlan = (project: ProjectId, query: FlagListQuery, nowMillis: number): ListPlan => {
  // No flag here is linked to an experiment, so that type matches nothing.
  if (query.type === "experiment") return { _tag: "Empty" }
  let created_by_id: number | null = null
  if (query.created_by_id !== undefined && query.created_by_id !== "") {
    if (!/^\d{1,10}$/.test(query.created_by_id.trim())) return { _tag: "Empty" }
    created_by_id = Number(query.created_by_id.trim())
    // No user id lies beyond the serial range, and the database would refuse to compare with one.
    if (created_by_id > MAX_SERIAL) return { _tag: "Empty" }
  }
  if (query.search !== undefined && holdsNul(query.search)) return { _tag: "Empty" }
  const tags = tagsOf(query.tags)
  if (tags !== null && tags.length === 0) return { _tag: "Empty" }
  const stale = query.active === "STALE"
  return {
    _tag: "Query",
    filter: {
      project_id: project,
      search: query.search === undefined || query.search === "" ? null : query.search,
      multivariate: query.type === "multivariant" ? true : query.type === "boolean" ? false : null,
      // PostHog: "true" lists active flags, any other value inactive ones.
      active: query.active === undefined || stale ? null : query.active === "true",
      staleBefore: stale ? (timestampFromDate(new Date(nowMillis - STALE_AFTER_DAYS * DAY_MS)) as Timestamp) : null,
      created_by_id,
      tags,
      order: orderOf(query.order)
    }
  }
}
