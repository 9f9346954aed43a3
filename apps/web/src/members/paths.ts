/** The API's paths for an organization's members and invites, as the contract declares them. */
export const MEMBERS_PATH = "/api/organizations/:organization_id/members/"
export const MEMBER_PATH = "/api/organizations/:organization_id/members/:user__uuid/"
export const INVITES_PATH = "/api/organizations/:organization_id/invites/"
export const INVITE_PATH = "/api/organizations/:organization_id/invites/:id/"
export const BULK_INVITES_PATH = "/api/organizations/:organization_id/invites/bulk/"

/** The prefix of every read of an organization's `part` (members or invites): what a write to one makes stale. */
export const organizationPrefix = (organizationId: string, part: "members" | "invites") =>
  `/api/organizations/${encodeURIComponent(organizationId)}/${part}/`
