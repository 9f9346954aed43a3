import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, type Command, Flag } from "effect/cli"
import { emit, table } from "../output.ts"
import { followNext, queryOf } from "../paging.ts"
import type { ApiClient } from "../remote.ts"
import type { Resource } from "../resource.ts"

/** Activity endpoints page by number, as PostHog's do: `{results, next, previous, total_count}`. */
interface ActivityPage<A> {
  readonly results: ReadonlyArray<A>
  readonly next: string | null
  readonly previous: string | null
  readonly total_count: number
}

interface Entry {
  readonly activity: string
  readonly created_at: string
  readonly user: { readonly email?: string | null; readonly first_name?: string } | null
  readonly detail: { readonly name: string | null; readonly changes: ReadonlyArray<{ readonly field: string | null }> | null }
}

/** Activity pages by number: only `page` and `limit` are read from a `next` link. */
const ACTIVITY_PAGING = ["page", "limit"] as const
export type ActivityQuery = Partial<Record<(typeof ACTIVITY_PAGING)[number], string>>

const everyPage = <A, E, R>(fetch: (query: ActivityQuery) => Effect.Effect<ActivityPage<A>, E, R>, first: ActivityQuery) =>
  Effect.map(followNext(fetch, first, ACTIVITY_PAGING), ({ last, results }) => ({ total_count: last.total_count, results }))

/**
 * `activity [ID]` of a project's items (flags, cohorts): one item's log, or every item's of the
 * project, newest first; the column named after the resource's noun shows what an entry is about.
 */
export const activityCommand = <S extends Command.Command.Config, At, A, E, R>(
  of: Resource<S, At, A>,
  spec: {
    readonly description: string
    readonly ofProject: (client: ApiClient, at: At, query: ActivityQuery) => Effect.Effect<ActivityPage<Entry>, E, R>
    readonly ofItem: (client: ApiClient, at: At, id: string, query: ActivityQuery) => Effect.Effect<ActivityPage<Entry>, E, R>
  }
) => {
  const columns = ["created_at", "activity", of.noun, "user", "changed"]
  const row = (entry: Entry) => ({
    created_at: entry.created_at,
    activity: entry.activity,
    [of.noun]: entry.detail.name,
    user: entry.user?.email ?? entry.user?.first_name ?? null,
    changed: (entry.detail.changes ?? []).map((change) => change.field).filter((field) => field !== null).join(", ")
  })
  return of.onAll("activity", {
    description: spec.description,
    input: {
      id: Argument.String("id").pipe(Argument.withDescription(`A ${of.noun} id; without it, every ${of.noun} of the project`), Argument.optional)
    },
    flags: {
      page: Flag.Int("page").pipe(Flag.withDescription("Page number (default 1)"), Flag.optional),
      limit: Flag.Int("limit").pipe(Flag.withDescription("Entries per page (default 10)"), Flag.optional),
      all: Flag.Boolean("all").pipe(Flag.withDescription("Follow `next` to the last page"), Flag.withDefault(false))
    },
    run: ({ client, at, values, json }) => {
      const fetch = (query: ActivityQuery) =>
        Option.match(values.id, {
          onNone: () => spec.ofProject(client, at, query),
          onSome: (id) => spec.ofItem(client, at, id, query)
        })
      const first: ActivityQuery = queryOf({ page: values.page, limit: values.limit })
      return values.all
        ? everyPage(fetch, first).pipe(Effect.flatMap(emit(json, (all) =>
          `${table(all.results.map(row), columns)}\n${all.results.length} of ${all.total_count}`)))
        : fetch(first).pipe(Effect.flatMap(emit(json, (page) =>
          `${table(page.results.map(row), columns)}\n${page.results.length} of ${page.total_count}` +
          (page.next === null ? "" : " (--page or --all for more)"))))
    }
  })
}
