import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Argument, Command } from "effect/cli"
import { MAX_ADDED_AT_ONCE } from "../defaults.ts"
import { emit, jsonFlag, table } from "../output.ts"
import { followNext, pageFlags, queryOf } from "../paging.ts"
import { checkPayload, remoteFlags, withApi } from "../remote.ts"
import { cohortIdArgument } from "./cohorts-shared.ts"
import { projectFlag } from "./flags-shared.ts"

const distinctIds = Argument.String("distinct-id").pipe(Argument.withDescription("Distinct ids"), Argument.variadic({ min: 1 }))

const list = Command.make(
  "list",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) => {
      const fetch = (query: { readonly limit?: string; readonly offset?: string }) =>
        client.cohorts.persons({ params: { project_id: options.project, id: options.id }, query })
      const first = queryOf({ limit: options.limit, offset: options.offset })
      const shown = (ids: ReadonlyArray<string>) => `${table(ids.map((distinct_id) => ({ distinct_id })), ["distinct_id"])}\n${ids.length} shown`
      return options.all
        ? followNext(fetch, first, ["limit", "offset"]).pipe(
          Effect.flatMap(({ results }) => emit(options.json, shown)(results.map((member) => member.name)))
        )
        : fetch(first).pipe(Effect.flatMap((page) =>
          emit(options.json, () => shown(page.results.map((member) => member.name)) + (page.next === null ? "" : " (--all for every page)"))(page)
        ))
    })
).pipe(Command.withDescription("A static cohort's members, by distinct id"))

const add = Command.make(
  "add",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, distinctIds, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const params = { project_id: options.project, id: options.id }
        for (let start = 0; start < options.distinctIds.length; start += MAX_ADDED_AT_ONCE) {
          const payload = yield* checkPayload((core) => core.AddPersonsBody, { person_ids: options.distinctIds.slice(start, start + MAX_ADDED_AT_ONCE) })
          yield* client.cohorts.addPersons({ params, payload })
          if (!options.json && options.distinctIds.length > MAX_ADDED_AT_ONCE) {
            yield* Console.log(`added ${Math.min(start + MAX_ADDED_AT_ONCE, options.distinctIds.length)}/${options.distinctIds.length}`)
          }
        }
        yield* emit(options.json, () => `Added ${options.distinctIds.length} distinct id(s) to cohort ${options.id}.`)({ success: true })
      }))
).pipe(Command.withDescription(`Add distinct ids to a static cohort (${MAX_ADDED_AT_ONCE.toLocaleString("en-US")} per request)`))

const remove = Command.make(
  "remove",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, distinctId: Argument.String("distinct-id"), json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.RemovePersonBody, { person_id: options.distinctId })
        const answer = yield* client.cohorts.removePerson({ params: { project_id: options.project, id: options.id }, payload })
        yield* emit(options.json, () => `Removed ${options.distinctId} from cohort ${options.id}.`)(answer)
      }))
).pipe(Command.withDescription("Take a distinct id out of a static cohort"))

export const members = Command.make("members").pipe(
  Command.withDescription("A static cohort's members: list, add, remove"),
  Command.withSubcommands([list, add, remove])
)
