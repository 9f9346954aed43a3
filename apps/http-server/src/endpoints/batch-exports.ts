import { BatchExportService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const batchExports = bindGroup("batchExports", {
  list: ({ actor, params, query, url }) =>
    BatchExportService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  retrieve: ({ actor, params }) => BatchExportService.use((s) => s.retrieve(actor, params.organization_id, params.id)),
  pause: ({ actor, params, body }) => BatchExportService.use((s) => s.pause(actor, params.organization_id, params.id, body)),
  unpause: ({ actor, params, body }) => BatchExportService.use((s) => s.unpause(actor, params.organization_id, params.id, body))
})
