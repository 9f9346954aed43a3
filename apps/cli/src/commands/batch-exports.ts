import * as Effect from "effect/Effect"
import { Argument, Command } from "effect/cli"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { currentOrgFlag, remoteFlags, withApi } from "../remote.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription("Batch export id (uuid)"))

const list = Command.make(
  "list",
  { ...remoteFlags, org: currentOrgFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "name", "model", "interval", "paused", "last_paused_at"],
        (query) => client.batchExports.list({ params: { organization_id: options.org }, query })
      ))
).pipe(Command.withDescription("List an organization's batch exports, newest first"))

const get = Command.make(
  "get",
  { ...remoteFlags, id: idArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.batchExports.retrieve({ params: { organization_id: options.org, id: options.id } }).pipe(
        Effect.flatMap(emit(options.json, (batchExport) => details(batchExport)))
      ))
).pipe(Command.withDescription("Show a batch export"))

const switchCommand = (name: "pause" | "unpause") =>
  Command.make(
    name,
    { ...remoteFlags, id: idArgument, org: currentOrgFlag, json: jsonFlag },
    (options) =>
      withApi(options, (client) =>
        client.batchExports[name]({ params: { organization_id: options.org, id: options.id } }).pipe(
          // The API answers 200 without a body; the JSON is PostHog's own answer to the same call.
          Effect.andThen(emit(options.json, () => `Batch export ${options.id} is ${name === "pause" ? "paused" : "running"}.`)({
            id: options.id,
            paused: name === "pause"
          }))
        ))
  ).pipe(Command.withDescription(
    name === "pause"
      ? "Pause a batch export (pausing a paused one changes nothing)"
      : "Resume a paused batch export (resuming a running one changes nothing)"
  ))

export const batchExports = Command.make("batch-exports").pipe(
  Command.withDescription("Batch exports through the API (--url, --key): list, show, pause; `admin batch-exports create` makes them"),
  Command.withSubcommands([list, get, switchCommand("pause"), switchCommand("unpause")])
)
