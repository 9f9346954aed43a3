import { FlagRoleAccess, PageEnvelopeOf } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery } from "./shared.ts"

const FlagParams = { project_id: Schema.String, feature_flag_id: Schema.String }
const AccessParams = { ...FlagParams, id: Schema.String }

/** `/api/projects/{project_id}/feature_flags/{feature_flag_id}/role_access/`: roles granted edit rights on one flag. */
export class FlagRoleAccessGroup extends HttpApiGroup.make("flagRoleAccess")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/", {
      params: FlagParams,
      query: ListQuery,
      success: PageEnvelopeOf(FlagRoleAccess),
      error: ReadErrors
    }).annotate(OpenApi.Description, "Roles granted access to the flag, by id (scope feature_flag:read)"),
    HttpApiEndpoint.post("create", "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/", {
      params: FlagParams,
      payload: Schema.Struct({ role_id: Schema.String }),
      success: FlagRoleAccess.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Grant a role of the flag's organization access; members of a can-only-view role may then edit it (scope feature_flag:write)"
    ),
    HttpApiEndpoint.get("retrieve", "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/:id/", {
      params: AccessParams,
      success: FlagRoleAccess,
      error: ReadErrors
    }).annotate(OpenApi.Description, "One grant of the flag (scope feature_flag:read)"),
    HttpApiEndpoint.delete("destroy", "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/:id/", {
      params: AccessParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Take a grant away (scope feature_flag:write)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Feature flag role access" }))
{}
