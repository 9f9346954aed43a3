import { BatchExportService } from "@hedgerow/core"
import type { Operation } from "../operation.ts"

export const batchExports = {
  pause: ({ actor, params, body }) => BatchExportService.use((s) => s.pause(actor, params["organization_id"]!, params["id"]!, body)),
  unpause: ({ actor, params, body }) => BatchExportService.use((s) => s.unpause(actor, params["organization_id"]!, params["id"]!, body))
} as const satisfies Record<string, Operation>
