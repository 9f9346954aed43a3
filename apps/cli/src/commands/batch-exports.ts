import * as Effect from "effect/Effect"
import { Argument, Command } from "effect/cli"
import { details, emit } from "../output.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

const batchExport = resource({
  noun: "batch export",
  scope: inOrganization,
  id: Argument.String("id").pipe(Argument.withDescription("Batch export id (uuid)")),
  show: (found: object) => details(found)
})

const list = batchExport.list({
  description: "List an organization's batch exports, newest first",
  columns: ["id", "name", "model", "interval", "paused", "last_paused_at"],
  fetch: ({ client, at }, query) => client.batchExports.list({ params: at, query })
})

const get = batchExport.get({
  description: "Show a batch export",
  fetch: ({ client, at, id }) => client.batchExports.retrieve({ params: { ...at, id } })
})

const switchCommand = (name: "pause" | "unpause") =>
  batchExport.onItem(name, {
    description: name === "pause"
      ? "Pause a batch export (pausing a paused one changes nothing)"
      : "Resume a paused batch export (resuming a running one changes nothing)",
    run: ({ client, at, id, json }) =>
      client.batchExports[name]({ params: { ...at, id } }).pipe(
        // The API answers 200 without a body; the JSON is what PostHog answers to the same call.
        Effect.andThen(emit(json, () => `Batch export ${id} is ${name === "pause" ? "paused" : "running"}.`)({ id, paused: name === "pause" }))
      )
  })

export const batchExports = Command.make("batch-exports").pipe(
  Command.withDescription("Batch exports through the API (--url, --key): list, show, pause; `admin batch-exports create` makes them"),
  Command.withSubcommands([list, get, switchCommand("pause"), switchCommand("unpause")])
)
