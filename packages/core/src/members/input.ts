import { Schema } from "effect"
import { Choice } from "../shared/fields.ts"
import { QueryText } from "../shared/page.ts"

/** Body of PATCH /members/{user__uuid}/: only `level` is writable; an absent level changes nothing. */
export const MemberUpdate = Schema.Struct({
  level: Schema.optionalKey(Choice([1, 8, 15]))
})
export type MemberUpdate = typeof MemberUpdate.Type

/** Orders the member list may take; both are served by the list index. */
export const MEMBER_ORDERS = ["joined_at", "-joined_at"] as const
export type MemberOrder = (typeof MEMBER_ORDERS)[number]
export const DEFAULT_MEMBER_ORDER: MemberOrder = "-joined_at"

/** Query parameters of the member list besides paging. */
export const MemberQueryFields = {
  email: Schema.optionalKey(QueryText),
  order: Schema.optionalKey(QueryText)
}

/** Any other `order` falls back to the default rather than failing. */
export const memberOrderOf = (text: string | undefined): MemberOrder =>
  MEMBER_ORDERS.find((order) => order === text) ?? DEFAULT_MEMBER_ORDER
