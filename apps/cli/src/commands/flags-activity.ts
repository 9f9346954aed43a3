import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { emit, jsonFlag, table } from "../output.ts"
import { remoteFlags, withApi } from "../remote.ts"
import { projectFlag } from "./flags-shared.ts"

/** Activity endpoints page by number (D3): `{results, next, previous, total_count}`. */
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

interface PageQuery {
  readonly page?: string
  readonly limit?: string
}

/** Only `page` and `limit` are read from a `next` link, whose host is the server's idea of itself. */
const queryOfLink = (link: string): PageQuery => {
  const params = new URL(link).searchParams
  return {
    ...(params.has("page") ? { page: params.get("page")! } : {}),
    ...(params.has("limit") ? { limit: params.get("limit")! } : {})
  }
}

const everyPage = <A, E, R>(fetch: (query: PageQuery) => Effect.Effect<ActivityPage<A>, E, R>, first: PageQuery) =>
  Effect.gen(function*() {
    let page = yield* fetch(first)
    const results = [...page.results]
    while (page.next !== null && page.results.length > 0) {
      page = yield* fetch(queryOfLink(page.next))
      results.push(...page.results)
    }
    return { total_count: page.total_count, results }
  })

const row = (entry: Entry) => ({
  created_at: entry.created_at,
  activity: entry.activity,
  flag: entry.detail.name,
  user: entry.user?.email ?? entry.user?.first_name ?? null,
  changed: (entry.detail.changes ?? []).map((change) => change.field).filter((field) => field !== null).join(", ")
})

const COLUMNS = ["created_at", "activity", "flag", "user", "changed"]

export const activity = Command.make(
  "activity",
  {
    ...remoteFlags,
    id: Argument.String("id").pipe(Argument.withDescription("A flag id; without it, every flag of the project"), Argument.optional),
    project: projectFlag,
    page: Flag.Int("page").pipe(Flag.withDescription("Page number (default 1)"), Flag.optional),
    limit: Flag.Int("limit").pipe(Flag.withDescription("Entries per page (default 10)"), Flag.optional),
    all: Flag.Boolean("all").pipe(Flag.withDescription("Follow `next` to the last page"), Flag.withDefault(false)),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) => {
      const fetch = (query: PageQuery) =>
        Option.match(options.id, {
          onNone: () => client.featureFlags.projectActivity({ params: { project_id: options.project }, query }),
          onSome: (id) => client.featureFlags.activity({ params: { project_id: options.project, id }, query })
        })
      const first: PageQuery = {
        ...(Option.isSome(options.page) ? { page: String(options.page.value) } : {}),
        ...(Option.isSome(options.limit) ? { limit: String(options.limit.value) } : {})
      }
      return options.all
        ? everyPage(fetch, first).pipe(Effect.flatMap(emit(options.json, (all) =>
          `${table(all.results.map(row), COLUMNS)}\n${all.results.length} of ${all.total_count}`)))
        : fetch(first).pipe(Effect.flatMap(emit(options.json, (page) =>
          `${table(page.results.map(row), COLUMNS)}\n${page.results.length} of ${page.total_count}` +
          (page.next === null ? "" : " (--page or --all for more)"))))
    })
).pipe(Command.withDescription("Activity log of one flag or of every flag of the project, newest first"))
