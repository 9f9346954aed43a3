import { Schema } from "effect"
import { MAX_SERIAL } from "../../shared/ids.ts"
import { type ListQuery, QueryText } from "../../shared/page.ts"
import { holdsNul } from "../../shared/text.ts"
import { EVALUATION_RUNTIMES } from "../model.ts"

/** The flag list's query parameters, under PostHog's names. */
export const FlagListQueryFields = {
  search: Schema.optionalKey(QueryText),
  type: Schema.optionalKey(QueryText),
  active: Schema.optionalKey(QueryText),
  created_by_id: Schema.optionalKey(QueryText),
  tags: Schema.optionalKey(QueryText),
  order: Schema.optionalKey(QueryText),
  evaluation_runtime: Schema.optionalKey(QueryText),
  excluded_properties: Schema.optionalKey(QueryText),
  /** Hedgerow's own: `true` lists the soft-deleted flags instead (the archive); see `isArchiveQuery`. */
  deleted: Schema.optionalKey(QueryText)
}

/** The flag list's query as it arrives: paging, and each parameter as text when given. */
export type FlagListQuery = ListQuery & { readonly [K in keyof typeof FlagListQueryFields]?: string | undefined }

export const FLAG_ORDER_FIELDS = ["key", "name", "created_at", "updated_at", "id", "active", "version"] as const
export type FlagOrderField = (typeof FLAG_ORDER_FIELDS)[number]

/** Whether the query asks for the archive (`deleted=true`) rather than the live flags. */
export const isArchiveQuery = (query: FlagListQuery): boolean => query.deleted === "true"

/**
 * The archive (`deleted=true`, Hedgerow's own): the soft-deleted flags, the last deleted first, searched by
 * key or name; the other filters and `order` are about live flags and are not read there. Any other value
 * of `deleted` lists the live flags, as PostHog, which has no such filter, does. Empty when the search
 * holds NUL, which no stored text can.
 */
export type ArchivePlan = { readonly _tag: "Archive"; readonly search: string | null } | { readonly _tag: "Empty" }

export const archivePlan = (query: FlagListQuery): ArchivePlan =>
  query.search !== undefined && holdsNul(query.search)
    ? { _tag: "Empty" }
    : { _tag: "Archive", search: query.search === undefined || query.search === "" ? null : query.search }

/** The list's filters, read from its query. */
export interface FlagListFilter {
  /** Case-insensitive substring of key or name. */
  readonly search: string | null
  readonly multivariate: boolean | null
  /** `type=remote_config`: flags serving a remote configuration payload. */
  readonly remoteConfiguration: boolean | null
  readonly evaluation_runtime: string | null
  /** Keys left out (`excluded_properties`). */
  readonly excludedKeys: ReadonlyArray<string> | null
  readonly active: boolean | null
  /** Only stale flags (see isStale), as of this moment (epoch milliseconds). */
  readonly staleAt: number | null
  readonly created_by_id: number | null
  /** Any of these tags. */
  readonly tags: ReadonlyArray<string> | null
  /** Ties are always broken by id, in the same direction. */
  readonly order: { readonly field: FlagOrderField; readonly descending: boolean }
}

/** What the list selects, or that nothing can match (PostHog would match nothing, or fail). */
export type ListPlan = { readonly _tag: "Query"; readonly filter: FlagListFilter } | { readonly _tag: "Empty" }

/** A JSON list of names; null for anything else, which PostHog ignores as it cannot parse it. */
const namesOf = (text: string | undefined): ReadonlyArray<string> | null => {
  if (text === undefined) return null
  try {
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) return null
    const names = parsed.filter((name): name is string => typeof name === "string")
    return names.length === 0 ? null : names
  } catch {
    return null
  }
}

/** `tags`: any of these names; `[]` when names were given but none could match. */
const tagsOf = (text: string | undefined) => namesOf(text)?.filter((name) => !holdsNul(name)) ?? null

/** `excluded_properties`: flag keys to leave out; a key holding NUL names no flag, so it excludes nothing. */
const excludedKeysOf = (text: string | undefined) => {
  const keys = namesOf(text)?.filter((key) => !holdsNul(key))
  return keys === undefined || keys.length === 0 ? null : keys
}

/** `order`: one of the sortable fields, `-` for descending; anything else keeps the default `-created_at`. */
const orderOf = (text: string | undefined): FlagListFilter["order"] => {
  const descending = text?.startsWith("-") ?? true
  const field = text?.replace(/^-/, "")
  return (FLAG_ORDER_FIELDS as ReadonlyArray<string>).includes(field ?? "")
    ? { field: field as FlagOrderField, descending }
    : { field: "created_at", descending: true }
}

/** The list's filters, or Empty when the query can match no flag. */
export const listPlan = (query: FlagListQuery, nowMillis: number): ListPlan => {
  // No flag here is linked to an experiment, so that type matches nothing.
  if (query.type === "experiment") return { _tag: "Empty" }
  let created_by_id: number | null = null
  if (query.created_by_id !== undefined && query.created_by_id !== "") {
    if (!/^\d{1,10}$/.test(query.created_by_id.trim())) return { _tag: "Empty" }
    created_by_id = Number(query.created_by_id.trim())
    // No user id lies beyond the serial range.
    if (created_by_id > MAX_SERIAL) return { _tag: "Empty" }
  }
  if (query.search !== undefined && holdsNul(query.search)) return { _tag: "Empty" }
  const tags = tagsOf(query.tags)
  if (tags !== null && tags.length === 0) return { _tag: "Empty" }
  const runtime = query.evaluation_runtime === undefined || query.evaluation_runtime === "" ? null : query.evaluation_runtime
  // A runtime no flag can have matches nothing, as PostHog's exact filter does.
  if (runtime !== null && !(EVALUATION_RUNTIMES as ReadonlyArray<string>).includes(runtime)) return { _tag: "Empty" }
  const stale = query.active === "STALE"
  return {
    _tag: "Query",
    filter: {
      search: query.search === undefined || query.search === "" ? null : query.search,
      multivariate: query.type === "multivariant" ? true : query.type === "boolean" ? false : null,
      remoteConfiguration: query.type === "remote_config" ? true : null,
      evaluation_runtime: runtime,
      excludedKeys: excludedKeysOf(query.excluded_properties),
      // PostHog: "true" lists active flags, any other value inactive ones.
      active: query.active === undefined || stale ? null : query.active === "true",
      staleAt: stale ? nowMillis : null,
      created_by_id,
      tags,
      order: orderOf(query.order)
    }
  }
}
