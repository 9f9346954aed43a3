import { PageEnvelopeOf, Role, RoleCreate, RoleMembership, RoleUpdate } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

const RoleParams = { ...OrganizationParam, id: Schema.String }
const MembershipsParams = { ...OrganizationParam, role_id: Schema.String }
const MembershipParams = { ...MembershipsParams, id: Schema.String }

/** `/api/organizations/{organization_id}/roles/` and each role's `role_memberships/`. */
export class RolesGroup extends HttpApiGroup.make("roles")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/roles/", {
      params: OrganizationParam,
      query: ListQuery,
      success: PageEnvelopeOf(Role),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The organization's roles with their members, oldest first (scope organization:read)"),
    HttpApiEndpoint.post("create", "/api/organizations/:organization_id/roles/", {
      params: OrganizationParam,
      payload: RoleCreate,
      success: Role.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Make a role, its name unique in the organization whatever its case; `feature_flags_access_level` 21 (can only view) or 37 (can always edit, the default) (administrator level, scope organization:write)"
    ),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/roles/:id/", {
      params: RoleParams,
      success: Role,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A role of the organization (scope organization:read)"),
    HttpApiEndpoint.patch("update", "/api/organizations/:organization_id/roles/:id/", {
      params: RoleParams,
      payload: RoleUpdate,
      success: Role,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Rename a role or change its feature-flag access level (administrator level, scope organization:write)"),
    HttpApiEndpoint.delete("destroy", "/api/organizations/:organization_id/roles/:id/", {
      params: RoleParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Delete a role with its memberships and every flag's grant to it, in one transaction (administrator level, scope organization:write)"
    ),
    HttpApiEndpoint.get("memberships", "/api/organizations/:organization_id/roles/:role_id/role_memberships/", {
      params: MembershipsParams,
      query: ListQuery,
      success: PageEnvelopeOf(RoleMembership),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The role's members, in the order they joined (scope organization:read)"),
    HttpApiEndpoint.post("addMembership", "/api/organizations/:organization_id/roles/:role_id/role_memberships/", {
      params: MembershipsParams,
      payload: Schema.Struct({ user_uuid: Schema.String }),
      success: RoleMembership.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Add an active member of the organization, named by their user's uuid (administrator level, scope organization:write)"
    ),
    HttpApiEndpoint.delete("removeMembership", "/api/organizations/:organization_id/roles/:role_id/role_memberships/:id/", {
      params: MembershipParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Take a member out of the role (administrator level, scope organization:write)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Roles" }))
{}
