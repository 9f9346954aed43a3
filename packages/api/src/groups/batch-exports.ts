import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { OrganizationParam } from "./shared.ts"

const BatchExportParams = { ...OrganizationParam, id: Schema.String }

/** The pause switch of `/api/organizations/{organization_id}/batch_exports/{id}/`. */
export class BatchExportsGroup extends HttpApiGroup.make("batchExports")
  .add(
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
