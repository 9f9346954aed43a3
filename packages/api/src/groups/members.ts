import { Member, MemberQueryFields, MemberUpdate, PageEnvelopeOf } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

/** `members/{user__uuid}/` names the member by their user's uuid, or `@me`. */
const MemberParams = { ...OrganizationParam, user__uuid: Schema.String }

/** `/api/organizations/{organization_id}/members/`. */
export class MembersGroup extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/members/", {
      params: OrganizationParam,
      query: { ...ListQuery, ...MemberQueryFields },
      success: PageEnvelopeOf(Member),
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Active members, newest first; `email` picks one address (any case), `order` is `joined_at` or `-joined_at` (scope organization_member:read)"
    ),
    HttpApiEndpoint.patch("update", "/api/organizations/:organization_id/members/:user__uuid/", {
      params: MemberParams,
      payload: MemberUpdate,
      success: Member,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Change another member's level (1 member, 8 administrator, 15 owner) within PostHog's rules (scope organization_member:write)"
    ),
    HttpApiEndpoint.delete("destroy", "/api/organizations/:organization_id/members/:user__uuid/", {
      params: MemberParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Remove a member, or leave with `@me`; an organization's last owner cannot leave (scope organization_member:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Members" }))
{}
