import type { BatchExport } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { given } from "../request-body.ts"

const create = Command.make(
  "create",
  {
    ...localFlags,
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    project: Flag.Int("project").pipe(Flag.withDescription("Project id, in that organization")),
    name: Flag.String("name").pipe(Flag.withDescription("Batch export name")),
    model: Flag.String("model").pipe(Flag.withDescription("events (default) or persons"), Flag.optional),
    json: jsonFlag
  },
  ({ org, project, name, model, json, ...store }) =>
    inProcess(store, ({ BatchExportService, systemActor }) =>
      BatchExportService.use((s) => s.create(systemActor, org, { project_id: project, name, ...given({ model }) }))).pipe(
      Effect.flatMap(emit(json, (batchExport: BatchExport) =>
        details(batchExport, ["id", "organization_id", "project_id", "name", "model", "interval", "paused", "created_at"])))
    )
).pipe(Command.withDescription("Create a batch export (its pause switch is in the API)"))

export const batchExports = Command.make("batch-exports").pipe(
  Command.withDescription("Batch exports"),
  Command.withSubcommands([create])
)
