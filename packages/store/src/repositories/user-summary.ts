import type { UserId, UserSummary, UserUuid } from "@hedgerow/core"

/**
 * A joined user rendered as PostHog's UserBasic, prefixed so that several users ride on one row
 * (`c_` creator, `m_` modifier, ...). All columns are null when the join found nobody.
 */
const SUMMARY_COLUMNS = [
  "id", "uuid", "distinct_id", "first_name", "last_name", "email", "is_email_verified", "hedgehog_config",
  "role_at_organization"
] as const

export const summaryColumns = (alias: string, prefix: string) =>
  SUMMARY_COLUMNS.map((column) => `${alias}.${column} AS ${prefix}${column}`).join(", ")

export const summaryOf = (row: Readonly<Record<string, unknown>>, prefix: string): UserSummary | null => {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null
  const value = (column: (typeof SUMMARY_COLUMNS)[number]) => row[`${prefix}${column}`]
  return {
    id: value("id") as UserId,
    uuid: value("uuid") as UserUuid,
    distinct_id: value("distinct_id") as string,
    first_name: value("first_name") as string,
    last_name: value("last_name") as string,
    email: value("email") as string,
    is_email_verified: value("is_email_verified") as boolean,
    hedgehog_config: value("hedgehog_config") as UserSummary["hedgehog_config"],
    role_at_organization: value("role_at_organization") as string | null
  }
}
