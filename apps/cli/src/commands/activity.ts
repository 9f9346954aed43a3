import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { emit, jsonFlag, table } from "../output.ts"
import { followNext, queryOf } from "../paging.ts"
import { type ApiClient, remoteFlags, withApi } from "../remote.ts"
import { projectFlag } from "./flags-shared.ts"

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
 * project, newest first; `item` names the column that shows what an entry is about.
 */
export const activityCommand = <E, R>(spec: {
  readonly item: string
  readonly description: string
  readonly ofProject: (client: ApiClient, project: string, query: ActivityQuery) => Effect.Effect<ActivityPage<Entry>, E, R>
  readonly ofItem: (client: ApiClient, project: string, id: string, query: ActivityQuery) => Effect.Effect<ActivityPage<Entry>, E, R>
}) => {
  const columns = ["created_at", "activity", spec.item, "user", "changed"]
  const row = (entry: Entry) => ({
    created_at: entry.created_at,
    activity: entry.activity,
    [spec.item]: entry.detail.name,
    user: entry.user?.email ?? entry.user?.first_name ?? null,
    changed: (entry.detail.changes ?? []).map((change) => change.field).filter((field) => field !== null).join(", ")
  })
  return Command.make(
    "activity",
    {
      ...remoteFlags,
      id: Argument.String("id").pipe(Argument.withDescription(`A ${spec.item} id; without it, every ${spec.item} of the project`), Argument.optional),
      project: projectFlag,
      page: Flag.Int("page").pipe(Flag.withDescription("Page number (default 1)"), Flag.optional),
      limit: Flag.Int("limit").pipe(Flag.withDescription("Entries per page (default 10)"), Flag.optional),
      all: Flag.Boolean("all").pipe(Flag.withDescription("Follow `next` to the last page"), Flag.withDefault(false)),
      json: jsonFlag
    },
    (options) =>
      withApi(options, (client) => {
        const fetch = (query: ActivityQuery) =>
          Option.match(options.id, {
            onNone: () => spec.ofProject(client, options.project, query),
            onSome: (id) => spec.ofItem(client, options.project, id, query)
          })
        const first: ActivityQuery = queryOf({ page: options.page, limit: options.limit })
        return options.all
          ? everyPage(fetch, first).pipe(Effect.flatMap(emit(options.json, (all) =>
            `${table(all.results.map(row), columns)}\n${all.results.length} of ${all.total_count}`)))
          : fetch(first).pipe(Effect.flatMap(emit(options.json, (page) =>
            `${table(page.results.map(row), columns)}\n${page.results.length} of ${page.total_count}` +
            (page.next === null ? "" : " (--page or --all for more)"))))
      })
  ).pipe(Command.withDescription(spec.description))
}
