import { CopyFlagsBody, CopyFlagsResult } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { OrganizationParam } from "./shared.ts"

/** `/api/organizations/{organization_id}/feature_flags/copy_flags/`: one flag copied to other projects of the organization. */
export class FlagCopyGroup extends HttpApiGroup.make("flagCopy")
  .add(
    HttpApiEndpoint.post("copyFlags", "/api/organizations/:organization_id/feature_flags/copy_flags/", {
      params: OrganizationParam,
      payload: CopyFlagsBody,
      success: CopyFlagsResult,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Copy the live flag `feature_flag_key` of project `from_project` to each of `target_project_ids` (1 to 50), with the cohorts it names (matched by name, made when missing): created there, or changed in place when the key exists. Each target is written whole or not at all; `success` holds the flags written, `failed` each target that was not (`project_id`, `error_message`). `disable_copied_flag` writes them inactive (scope feature_flag:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Feature flag copy" }))
{}
