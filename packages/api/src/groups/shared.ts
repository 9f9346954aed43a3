import { PageQuery } from "@hedgerow/core"
import { Schema } from "effect"

/** Path segments stay text: core decides what is not found, so foreign and malformed ids answer alike. */
export const OrganizationParam = { organization_id: Schema.String }
export const ListQuery = PageQuery
