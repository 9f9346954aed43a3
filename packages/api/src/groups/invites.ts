import { Invite, InviteCreate, PageEnvelopeOf } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

/** `/api/organizations/{organization_id}/invites/`. */
export class InvitesGroup extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/invites/", {
      params: OrganizationParam,
      query: ListQuery,
      success: PageEnvelopeOf(Invite),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The organization's invites, newest first, expired ones included (scope organization_member:read)"),
    HttpApiEndpoint.post("create", "/api/organizations/:organization_id/invites/", {
      params: OrganizationParam,
      payload: InviteCreate,
      success: Invite.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Invite an address at a level no higher than your own; earlier invites for it are replaced, and the e-mail is sent when a mail transport is configured (scope organization_member:write)"
    ),
    HttpApiEndpoint.post("bulk", "/api/organizations/:organization_id/invites/bulk/", {
      params: OrganizationParam,
      payload: Schema.Array(InviteCreate),
      success: HttpApiSchema.Empty(200),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "A JSON array of 1 to 20 invites, validated whole and created all together or not at all; an item's error names its index, e.g. `2__target_email` (scope organization_member:write)"
    ),
    HttpApiEndpoint.delete("destroy", "/api/organizations/:organization_id/invites/:id/", {
      params: { ...OrganizationParam, id: Schema.String },
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Withdraw an invite (scope organization_member:write)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Invites" }))
{}
