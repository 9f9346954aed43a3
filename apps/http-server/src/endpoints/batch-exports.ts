import { BatchExportService } from "@hedgerow/core"
import { bindGroup } from "./endpoint.ts"

export const batchExports = bindGroup("batchExports", {
  pause: ({ actor, params, body }) => BatchExportService.use((s) => s.pause(actor, params.organization_id, params.id, body)),
  unpause: ({ actor, params, body }) => BatchExportService.use((s) => s.unpause(actor, params.organization_id, params.id, body))
})
