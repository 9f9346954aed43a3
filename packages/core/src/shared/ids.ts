import { Schema } from "effect"

/** Branded identifiers, so that a project id can never be passed where a flag id is expected. */
const Uuid = Schema.String.check(Schema.isUUID())
/** Serial ids are PostgreSQL integers. */
export const MAX_SERIAL = 2_147_483_647
const Serial = Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(MAX_SERIAL))

export const OrganizationId = Uuid.pipe(Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type
export const UserId = Serial.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type
export const UserUuid = Uuid.pipe(Schema.brand("UserUuid"))
export type UserUuid = typeof UserUuid.Type
export const MembershipId = Uuid.pipe(Schema.brand("MembershipId"))
export type MembershipId = typeof MembershipId.Type
export const PersonalApiKeyId = Uuid.pipe(Schema.brand("PersonalApiKeyId"))
export type PersonalApiKeyId = typeof PersonalApiKeyId.Type
export const ProjectId = Serial.pipe(Schema.brand("ProjectId"))
export type ProjectId = typeof ProjectId.Type
export const FeatureFlagId = Serial.pipe(Schema.brand("FeatureFlagId"))
export type FeatureFlagId = typeof FeatureFlagId.Type
export const RoleId = Uuid.pipe(Schema.brand("RoleId"))
export type RoleId = typeof RoleId.Type
export const RoleMembershipId = Uuid.pipe(Schema.brand("RoleMembershipId"))
export type RoleMembershipId = typeof RoleMembershipId.Type
export const RoleAccessId = Serial.pipe(Schema.brand("RoleAccessId"))
export type RoleAccessId = typeof RoleAccessId.Type
export const DomainId = Uuid.pipe(Schema.brand("DomainId"))
export type DomainId = typeof DomainId.Type
export const InviteId = Uuid.pipe(Schema.brand("InviteId"))
export type InviteId = typeof InviteId.Type
export const BatchExportId = Uuid.pipe(Schema.brand("BatchExportId"))
export type BatchExportId = typeof BatchExportId.Type
export const WebhookId = Uuid.pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type
/** A webhook delivery: the `webhook-id` its every attempt carries, by which a receiver drops repeats. */
export const WebhookDeliveryId = Uuid.pipe(Schema.brand("WebhookDeliveryId"))
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type
export const DashboardId = Serial.pipe(Schema.brand("DashboardId"))
export type DashboardId = typeof DashboardId.Type
export const CohortId = Serial.pipe(Schema.brand("CohortId"))
export type CohortId = typeof CohortId.Type
export const ActivityLogId = Uuid.pipe(Schema.brand("ActivityLogId"))
export type ActivityLogId = typeof ActivityLogId.Type
/** A log-in session's row; never its secret, which is the cookie's value and stored only as a hash. */
export const SessionId = Uuid.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Path segments arrive as text; anything that cannot be an id of the kind is simply not found. */
export const isUuid = (text: string): boolean => UUID_PATTERN.test(text)
/** UUIDs compare in their canonical lower-case form, whatever case the caller wrote. */
export const canonicalUuid = (text: string): string | undefined => (isUuid(text) ? text.toLowerCase() : undefined)
export const parseSerial = (text: string): number | undefined => {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined
  const id = Number(text)
  return id <= MAX_SERIAL ? id : undefined
}
