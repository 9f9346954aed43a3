import { Command, Flag } from "effect/cli"
import { details } from "../output.ts"
import { given } from "../request-body.ts"
import { adminCommand } from "./command.ts"

const create = adminCommand("create", {
  description: "Create a batch export (its pause switch is in the API)",
  flags: {
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    project: Flag.Int("project").pipe(Flag.withDescription("Project id, in that organization")),
    name: Flag.String("name").pipe(Flag.withDescription("Batch export name")),
    model: Flag.String("model").pipe(Flag.withDescription("events (default) or persons"), Flag.optional)
  },
  run: ({ BatchExportService, systemActor }, { org, project, name, model }) =>
    BatchExportService.use((s) => s.create(systemActor, org, { project_id: project, name, ...given({ model }) })),
  show: (batchExport) => details(batchExport, ["id", "organization_id", "project_id", "name", "model", "interval", "paused", "created_at"])
})

export const batchExports = Command.make("batch-exports").pipe(
  Command.withDescription("Batch exports"),
  Command.withSubcommands([create])
)
