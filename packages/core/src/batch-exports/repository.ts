import { Context, type Effect } from "effect"
import type { BatchExport, BatchExportModel } from "./model.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"

export class BatchExportRepository extends Context.Service<BatchExportRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly project_id: ProjectId
    readonly name: string
    readonly model: BatchExportModel
  }) => Effect.Effect<BatchExport>
}>()("hedgerow/BatchExportRepository") {}
