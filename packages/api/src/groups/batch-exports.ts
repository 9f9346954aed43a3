import { BatchExportView, PageEnvelopeOf } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

const BatchExportParams = { ...OrganizationParam, id: Schema.String }

/** `/api/organizations/{organization_id}/batch_exports/`: reading them and their pause switch; operators create them. */
export class BatchExportsGroup extends HttpApiGroup.make("batchExports")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/batch_exports/", {
      params: OrganizationParam,
      query: ListQuery,
      success: PageEnvelopeOf(BatchExportView),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The organization's batch exports, newest first (scope batch_export:read)"),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/batch_exports/:id/", {
      params: BatchExportParams,
      success: BatchExportView,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A batch export of the organization (scope batch_export:read)"),
    HttpApiEndpoint.post("pause", "/api/organizations/:organization_id/batch_exports/:id/pause/", {
      params: BatchExportParams,
      success: HttpApiSchema.Empty(200),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Pause a batch export and stamp last_paused_at; pausing a paused export changes nothing. A JSON body is optional and its fields are ignored (scope batch_export:write)"
    ),
    HttpApiEndpoint.post("unpause", "/api/organizations/:organization_id/batch_exports/:id/unpause/", {
      params: BatchExportParams,
      success: HttpApiSchema.Empty(200),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Resume a batch export; unpausing a running export changes nothing. A JSON body is optional and its fields are ignored (scope batch_export:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Batch exports" }))
{}
