import { Schema, SchemaTransformation } from "effect"

/** PostHog's limit/offset pagination: 100 by default, bad values read leniently; at most 1000, so no request asks for a whole table. */
export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 1000

export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

/**
 * A query parameter as PostHog reads it: when a name repeats, the last value wins. Query values are
 * never a reason to fail a request; the rules below read them leniently.
 */
export const QueryText = Schema.Union([Schema.String, Schema.Array(Schema.String)]).pipe(
  Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform<string, string | ReadonlyArray<string>>({
      decode: (value) => (typeof value === "string" ? value : value.at(-1) ?? ""),
      encode: (value) => value
    })
  )
)

/** List query parameters as they arrive, before the lenient parsing below. */
export const PageQuery = {
  limit: Schema.optionalKey(QueryText),
  offset: Schema.optionalKey(QueryText)
}

/** A count as PostHog's pagination reads it: digits only; past what a number holds, simply very large. */
const positiveInt = (text: string | undefined): number | undefined => {
  if (text === undefined || !/^\s*\+?\d+\s*$/.test(text)) return undefined
  return Math.min(Number(text), Number.MAX_SAFE_INTEGER)
}

export const pageRequest = (query: { readonly limit?: string | undefined; readonly offset?: string | undefined }): PageRequest => {
  const limit = positiveInt(query.limit)
  return {
    limit: limit === undefined || limit === 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT),
    offset: positiveInt(query.offset) ?? 0
  }
}

/** What list operations take: the query parameters as text, read leniently by core. */
export interface ListQuery {
  readonly limit?: string | undefined
  readonly offset?: string | undefined
}

export interface Page<A> {
  readonly count: number
  readonly results: ReadonlyArray<A>
  readonly request: PageRequest
}

/** The wire envelope; `next`/`previous` are absolute URLs built from the request URL. */
export interface PageEnvelope<A> {
  readonly count: number
  readonly next: string | null
  readonly previous: string | null
  readonly results: ReadonlyArray<A>
}

/** PostHog's link rules: `next` keeps every other parameter; `previous` drops `offset` when it would be 0. */
export const toEnvelope = <A>(page: Page<A>, requestUrl: string): PageEnvelope<A> => {
  const { limit, offset } = page.request
  const link = (nextOffset: number | null) => {
    const url = new URL(requestUrl)
    url.searchParams.set("limit", String(limit))
    if (nextOffset === null) url.searchParams.delete("offset")
    else url.searchParams.set("offset", String(nextOffset))
    return url.toString()
  }
  return {
    count: page.count,
    next: offset + limit < page.count ? link(offset + limit) : null,
    previous: offset <= 0 ? null : link(offset - limit > 0 ? offset - limit : null),
    results: page.results
  }
}

export const PageEnvelopeOf = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    count: Schema.Int,
    next: Schema.NullOr(Schema.String),
    previous: Schema.NullOr(Schema.String),
    results: Schema.Array(item)
  })

/** PostHog's activity pagination: `page` from 1, `limit` default 10, as leniently read as limit/offset. */
export const DEFAULT_ACTIVITY_LIMIT = 10

export interface PageNumberRequest {
  readonly page: number
  readonly limit: number
}

export interface PageNumberQuery {
  readonly page?: string | undefined
  readonly limit?: string | undefined
}

export const pageNumberRequest = (query: PageNumberQuery): PageNumberRequest => {
  const limit = positiveInt(query.limit)
  const page = positiveInt(query.page)
  return {
    limit: limit === undefined || limit === 0 ? DEFAULT_ACTIVITY_LIMIT : Math.min(limit, MAX_LIMIT),
    page: page === undefined || page === 0 ? 1 : page
  }
}

export interface NumberedPage<A> {
  readonly total_count: number
  readonly results: ReadonlyArray<A>
  readonly request: PageNumberRequest
}

export interface NumberedPageEnvelope<A> {
  readonly results: ReadonlyArray<A>
  readonly next: string | null
  readonly previous: string | null
  readonly total_count: number
}

/** Links carry `page` and `limit` on the request URL, other parameters kept, as PostHog's activity pages do. */
export const toNumberedEnvelope = <A>(page: NumberedPage<A>, requestUrl: string): NumberedPageEnvelope<A> => {
  const { limit, page: number } = page.request
  const link = (target: number) => {
    const url = new URL(requestUrl)
    url.searchParams.set("page", String(target))
    url.searchParams.set("limit", String(limit))
    return url.toString()
  }
  return {
    results: page.results,
    next: number * limit < page.total_count ? link(number + 1) : null,
    previous: number > 1 ? link(number - 1) : null,
    total_count: page.total_count
  }
}
