import { Schema } from "effect"
import { BatchExportId, OrganizationId, ProjectId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"

export const BatchExportModel = Schema.Literals(["events", "persons"])
export type BatchExportModel = typeof BatchExportModel.Type

/** A batch export as the store holds it; operators create them (the CLI), the API reads and pauses them. */
export const BatchExport = Schema.Struct({
  id: BatchExportId,
  organization_id: OrganizationId,
  project_id: ProjectId,
  name: Schema.String,
  model: BatchExportModel,
  destination: Json,
  interval: Schema.String,
  paused: Schema.Boolean,
  last_paused_at: Schema.NullOr(Timestamp),
  start_at: Schema.NullOr(Timestamp),
  end_at: Schema.NullOr(Timestamp),
  hogql_query: Schema.String,
  deleted: Schema.Boolean,
  created_at: Timestamp
})
export type BatchExport = typeof BatchExport.Type

/**
 * A batch export as PostHog answers it, its fields in PostHog's order, as far as the store holds them:
 * its project is `team_id`; nothing runs exports here, so there are no runs (`latest_runs`) and no
 * `last_updated_at`.
 */
export const BatchExportView = Schema.Struct({
  id: BatchExportId,
  team_id: ProjectId,
  name: Schema.String,
  model: BatchExportModel,
  destination: Json,
  interval: Schema.String,
  paused: Schema.Boolean,
  created_at: Timestamp,
  last_paused_at: Schema.NullOr(Timestamp),
  start_at: Schema.NullOr(Timestamp),
  end_at: Schema.NullOr(Timestamp),
  hogql_query: Schema.String
})
export type BatchExportView = typeof BatchExportView.Type

export const toBatchExportView = (batchExport: BatchExport): BatchExportView => ({
  id: batchExport.id,
  team_id: batchExport.project_id,
  name: batchExport.name,
  model: batchExport.model,
  destination: batchExport.destination,
  interval: batchExport.interval,
  paused: batchExport.paused,
  created_at: batchExport.created_at,
  last_paused_at: batchExport.last_paused_at,
  start_at: batchExport.start_at,
  end_at: batchExport.end_at,
  hogql_query: batchExport.hogql_query
})
