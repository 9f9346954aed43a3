import * as Effect from "effect/Effect"
import { Argument, Command } from "effect/cli"
import { emit, jsonFlag } from "../output.ts"
import { currentOrgFlag, remoteFlags, withApi } from "../remote.ts"

const switchCommand = (name: "pause" | "unpause") =>
  Command.make(
    name,
    {
      ...remoteFlags,
      id: Argument.String("id").pipe(Argument.withDescription("Batch export id (uuid)")),
      org: currentOrgFlag,
      json: jsonFlag
    },
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
  Command.withDescription("Batch exports' pause switch, through the API (--url, --key); `admin batch-exports create` makes them"),
  Command.withSubcommands([switchCommand("pause"), switchCommand("unpause")])
)
