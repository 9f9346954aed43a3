import { Context, type Effect, type Option } from "effect"
import type { BatchExport, BatchExportModel } from "./model.ts"
import type { BatchExportId, OrganizationId, ProjectId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class BatchExportRepository extends Context.Service<BatchExportRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly project_id: ProjectId
    readonly name: string
    readonly model: BatchExportModel
  }) => Effect.Effect<BatchExport>
  /** A batch export of this organization that is not deleted. */
  readonly find: (organization: OrganizationId, id: BatchExportId) => Effect.Effect<Option.Option<BatchExport>>
  /** The organization's batch exports that are not deleted, newest first (PostHog's order). */
  readonly list: (organization: OrganizationId, page: PageRequest) => Effect.Effect<Page<BatchExport>>
  /**
   * Pauses or unpauses a batch export that is not deleted; false if there is none. Pausing stamps
   * `last_paused_at` only when the export was running, so a repeated pause changes nothing.
   */
  readonly setPaused: (organization: OrganizationId, id: BatchExportId, paused: boolean) => Effect.Effect<boolean>
}>()("hedgerow/BatchExportRepository") {}
