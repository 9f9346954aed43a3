import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Argument, Command } from "effect/cli"
import { MAX_ADDED_AT_ONCE } from "../defaults.ts"
import { emit, table } from "../output.ts"
import { followNext, pageFlags, type PageQuery, queryOf } from "../paging.ts"
import { checkPayload } from "../remote.ts"
import { cohort } from "./cohorts-resource.ts"

const list = cohort.onItem("list", {
  description: "A static cohort's members, by distinct id",
  flags: pageFlags,
  run: ({ client, at, id, values, json }) => {
    const fetch = (query: PageQuery) => client.cohorts.persons({ params: { ...at, id }, query })
    const first = queryOf({ limit: values.limit, offset: values.offset })
    const shown = (ids: ReadonlyArray<string>) => `${table(ids.map((distinct_id) => ({ distinct_id })), ["distinct_id"])}\n${ids.length} shown`
    return values.all
      ? followNext(fetch, first, ["limit", "offset"]).pipe(
        Effect.flatMap(({ results }) => emit(json, shown)(results.map((member) => member.name)))
      )
      : fetch(first).pipe(Effect.flatMap((page) =>
        emit(json, () => shown(page.results.map((member) => member.name)) + (page.next === null ? "" : " (--all for every page)"))(page)
      ))
  }
})

const add = cohort.onItem("add", {
  description: `Add distinct ids to a static cohort (${MAX_ADDED_AT_ONCE.toLocaleString("en-US")} per request)`,
  input: { distinctIds: Argument.String("distinct-id").pipe(Argument.withDescription("Distinct ids"), Argument.variadic({ min: 1 })) },
  run: ({ client, at, id, values: { distinctIds }, json }) =>
    Effect.gen(function*() {
      const params = { ...at, id }
      for (let start = 0; start < distinctIds.length; start += MAX_ADDED_AT_ONCE) {
        const payload = yield* checkPayload((core) => core.AddPersonsBody, { person_ids: distinctIds.slice(start, start + MAX_ADDED_AT_ONCE) })
        yield* client.cohorts.addPersons({ params, payload })
        if (!json && distinctIds.length > MAX_ADDED_AT_ONCE) {
          yield* Console.log(`added ${Math.min(start + MAX_ADDED_AT_ONCE, distinctIds.length)}/${distinctIds.length}`)
        }
      }
      yield* emit(json, () => `Added ${distinctIds.length} distinct id(s) to cohort ${id}.`)({ success: true })
    })
})

const remove = cohort.onItem("remove", {
  description: "Take a distinct id out of a static cohort",
  input: { distinctId: Argument.String("distinct-id") },
  run: ({ client, at, id, values, json }) =>
    Effect.gen(function*() {
      const payload = yield* checkPayload((core) => core.RemovePersonBody, { person_id: values.distinctId })
      const answer = yield* client.cohorts.removePerson({ params: { ...at, id }, payload })
      yield* emit(json, () => `Removed ${values.distinctId} from cohort ${id}.`)(answer)
    })
})

export const members = Command.make("members").pipe(
  Command.withDescription("A static cohort's members: list, add, remove"),
  Command.withSubcommands([list, add, remove])
)
