import type { PageEnvelope } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Flag } from "effect/cli"
import { emit, table } from "./output.ts"

/** List endpoints page by limit and offset, as PostHog's do: `{count, next, previous, results}` (core's envelope). */
type Page<A> = PageEnvelope<A>

/** The typed client's query for list endpoints: text, as the API keeps it. */
export interface PageQuery {
  readonly limit?: string
  readonly offset?: string
}

/** Spread into a list command's flags. */
export const pageFlags = {
  limit: Flag.Int("limit").pipe(Flag.withDescription("Page size (server default 100, at most 1000)"), Flag.optional),
  offset: Flag.Int("offset").pipe(Flag.withDescription("Skip this many items"), Flag.optional),
  all: Flag.Boolean("all").pipe(Flag.withDescription("Follow `next` to the last page"), Flag.withDefault(false))
}

/** The page flags' values. */
export interface PageOptions {
  readonly limit: Option.Option<number>
  readonly offset: Option.Option<number>
  readonly all: boolean
}

/** Query parameters from optional flag values, as text; absent ones are left out. */
export const queryOf = <K extends string>(values: Readonly<Record<K, Option.Option<number>>>): Partial<Record<K, string>> =>
  Object.fromEntries(
    Object.entries<Option.Option<number>>(values).flatMap(([key, value]) => Option.isSome(value) ? [[key, String(value.value)]] : [])
  ) as Partial<Record<K, string>>

/**
 * Only the paging parameters `keys` are read from a `next` link: its host is whatever the server was
 * asked for (possibly via a proxy), while the client keeps talking to the URL it was given.
 */
export const queryOfLink = <K extends string>(link: string, keys: ReadonlyArray<K>): Partial<Record<K, string>> => {
  const params = new URL(link).searchParams
  return Object.fromEntries(keys.flatMap((key) => params.has(key) ? [[key, params.get(key)!]] : [])) as Partial<Record<K, string>>
}

/**
 * Every item from `first` on, following `next` page after page (read by `keys`), with the last page. An
 * empty page ends the walk even if the server still offers a link, so it cannot loop forever.
 */
export const followNext = <K extends string, P extends { readonly results: ReadonlyArray<unknown>; readonly next: string | null }, E, R>(
  fetch: (query: Partial<Record<K, string>>) => Effect.Effect<P, E, R>,
  first: Partial<Record<K, string>>,
  keys: ReadonlyArray<K>
) =>
  Effect.gen(function*() {
    let page = yield* fetch(first)
    const results: Array<P["results"][number]> = [...page.results]
    while (page.next !== null && page.results.length > 0) {
      page = yield* fetch(queryOfLink(page.next, keys))
      results.push(...page.results)
    }
    return { last: page, results }
  })

/** Every item from `first` on; `count` is the server's total, as on any page. */
export const allPages = <A, E, R>(fetch: (query: PageQuery) => Effect.Effect<Page<A>, E, R>, first: PageQuery) =>
  Effect.map(followNext(fetch, first, ["limit", "offset"]), ({ last, results }) => ({ count: last.count, results }))

const footer = (page: Page<unknown>, offset: number) => {
  if (page.results.length === page.count) return `${page.count} in all`
  if (page.results.length === 0) return `none past ${offset} (${page.count} in all)`
  return `${offset + 1}-${offset + page.results.length} of ${page.count}` + (page.next === null ? "" : " (--all for every page)")
}

/**
 * The body of a list command: one page (JSON: the raw page) or, with `--all`, everything (JSON:
 * `{count, results}`); as text, a table of `columns` of each item (or of what `row` makes of it, for
 * items whose interesting fields are nested).
 */
export const listCommand = <A extends object, E, R>(
  options: PageOptions & { readonly json: boolean },
  columns: ReadonlyArray<string>,
  fetch: (query: PageQuery) => Effect.Effect<Page<A>, E, R>,
  row: (item: A) => object = (item) => item
) => {
  const query: PageQuery = queryOf({ limit: options.limit, offset: options.offset })
  return options.all
    ? allPages(fetch, query).pipe(
      Effect.flatMap(emit(options.json, (everything) =>
        `${table(everything.results.map(row), columns)}\n${everything.results.length} of ${everything.count}`))
    )
    : fetch(query).pipe(
      Effect.flatMap(emit(options.json, (page) =>
        `${table(page.results.map(row), columns)}\n${footer(page, Option.getOrElse(options.offset, () => 0))}`))
    )
}
