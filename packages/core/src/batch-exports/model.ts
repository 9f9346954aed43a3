import { Schema } from "effect"
import { BatchExportId, OrganizationId, ProjectId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"

export const BatchExportModel = Schema.Literals(["events", "persons"])
export type BatchExportModel = typeof BatchExportModel.Type

/** A batch export; only its pause switch has API endpoints, the CLI creates them. */
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
