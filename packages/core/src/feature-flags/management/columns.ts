import { Struct } from "effect"
import { pythonStrip } from "../../shared/fields.ts"
import type { DashboardId, UserId } from "../../shared/ids.ts"
import { derivedColumns } from "../derived.ts"
import type { StoredFlag } from "../model.ts"
import { type FlagColumns, FlagWritable } from "../repository.ts"
import type { CreateInput, FlagInput } from "./rules.ts"

/** Tags as PostHog keeps them (trimmed, in lower case), without duplicates; sorted, so the answer is stable. */
export const normalizedTags = (tags: ReadonlyArray<string>) => [...new Set(tags.map((tag) => pythonStrip(tag).toLowerCase()))].sort()

/** PostHog links the analytics dashboards a write names to those already linked: a write adds dashboards, never removes one. */
const withDashboards = (current: ReadonlyArray<DashboardId>, added: ReadonlyArray<number> | undefined) =>
  added === undefined ? current : [...new Set([...current, ...(added as ReadonlyArray<DashboardId>)])]

/** The writable fields' names: what a write copies from the body, or else from the flag, unless a rule below decides. */
const WRITABLE = Object.keys(FlagWritable.fields) as ReadonlyArray<keyof FlagWritable>

/** A new flag's fields where the body leaves them out, as PostHog's model defaults them. */
const NEW_FLAG = {
  name: "",
  filters: {},
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  rollback_conditions: null,
  performed_rollback: false,
  tags: [],
  analytics_dashboards: [],
  has_enriched_analytics: false,
  is_remote_configuration: false,
  has_encrypted_payloads: false,
  evaluation_runtime: "all"
} satisfies Omit<FlagWritable, "key" | "last_modified_by_id">

/** The body over the flag's fields (`base`): each writable field from the body if given, else as it is. */
const columnsOf = (base: FlagWritable, input: FlagInput, key: string, user: UserId | null): FlagColumns => {
  const merged = { ...base, ...input }
  return {
    ...Struct.pick(merged, WRITABLE),
    key,
    // Booleans a body may give as null: null is stored as false.
    ensure_experience_continuity: merged.ensure_experience_continuity ?? false,
    // Turning a flag on clears a performed rollback, as PostHog does.
    performed_rollback: input.active === true ? false : merged.performed_rollback ?? false,
    has_enriched_analytics: merged.has_enriched_analytics ?? false,
    is_remote_configuration: merged.is_remote_configuration ?? false,
    has_encrypted_payloads: merged.has_encrypted_payloads ?? false,
    tags: input.tags === undefined ? base.tags : normalizedTags(input.tags),
    analytics_dashboards: withDashboards(base.analytics_dashboards, input.analytics_dashboards),
    last_modified_by_id: user,
    ...derivedColumns(merged.filters)
  }
}

/** A new flag's columns. */
export const newFlagColumns = (input: CreateInput, user: UserId | null): FlagColumns =>
  columnsOf({ ...NEW_FLAG, key: input.key, last_modified_by_id: user }, input, input.key, user)

/** A changed flag's columns: the body over the flag as it stands, under the key the change gives it. */
export const nextFlagColumns = (current: StoredFlag, input: FlagInput, key: string, user: UserId | null): FlagColumns =>
  columnsOf(current, input, key, user)
