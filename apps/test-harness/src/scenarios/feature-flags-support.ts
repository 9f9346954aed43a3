import assert from "node:assert/strict"
import type { Reply, Target } from "../targets/target.ts"
import { denied, envelope, expectReply, invalid, type ScenarioContext } from "./scenario.ts"

/** The flag endpoints, named as in packages/api. */
export const FLAGS = {
  list: { group: "featureFlags", endpoint: "list" },
  create: { group: "featureFlags", endpoint: "create" },
  projectActivity: { group: "featureFlags", endpoint: "projectActivity" },
  retrieve: { group: "featureFlags", endpoint: "retrieve" },
  update: { group: "featureFlags", endpoint: "update" },
  destroy: { group: "featureFlags", endpoint: "destroy" },
  status: { group: "featureFlags", endpoint: "status" },
  activity: { group: "featureFlags", endpoint: "activity" },
  accessControls: { group: "featureFlags", endpoint: "accessControls" },
  globalAccessControls: { group: "featureFlags", endpoint: "globalAccessControls" },
  createStaticCohort: { group: "featureFlags", endpoint: "createStaticCohort" },
  dashboard: { group: "featureFlags", endpoint: "dashboard" },
  enrichUsageDashboard: { group: "featureFlags", endpoint: "enrichUsageDashboard" },
  remoteConfig: { group: "featureFlags", endpoint: "remoteConfig" },
  evaluationReasons: { group: "featureFlags", endpoint: "evaluationReasons" }
} as const

export const ROLE_ACCESS = {
  list: { group: "flagRoleAccess", endpoint: "list" },
  create: { group: "flagRoleAccess", endpoint: "create" },
  retrieve: { group: "flagRoleAccess", endpoint: "retrieve" },
  destroy: { group: "flagRoleAccess", endpoint: "destroy" }
} as const

/** The refused hard delete: PostHog answers an empty 405; here it has the envelope and says what to do instead. */
export const HARD_DELETE = envelope(
  "invalid_request",
  "method_not_allowed",
  "Hard delete of this model is not allowed. Use a patch API call to set \"deleted\" to true"
)
/** PostHog's refusal of a PATCH by a caller without edit rights on the flag. */
export const NO_EDIT_RIGHTS = denied("You don't have edit permissions for this feature flag.")
/** PostHog's refusal to a caller who may not grant roles on the flag. */
export const NO_ROLE_RIGHTS = denied("You can't edit roles for this feature flag.")
/** The 409 of a stale `version`, with PostHog's message. */
export const conflict = (email: string) =>
  envelope("server_error", "conflict", `The feature flag was updated by ${email} since you started editing it. Please refresh and try again.`)

/**
 * Scenarios share one world per target and run in any order: every flag key is new. The random part
 * comes last, so that no key is a substring of another and a `search` for one finds only it.
 */
const run = Math.random().toString(36).slice(2, 8).padEnd(6, "0")
let serial = 0
export const uniqueKey = (stem: string) => `${stem}-${++serial}-${run}`

export const OWNER_A_EMAIL = "owner@a.example"
export const MEMBER_A_EMAIL = "member@a.example"

/** The project the primary key works in; a `--url` run whose key has no project cannot run flag scenarios. */
export const projectOf = (context: ScenarioContext): number => {
  assert.ok(context.primary.project !== null, "the key has a current project")
  return context.primary.project
}

/** A boolean flag released to `percentage` of everyone. */
export const rolledOut = (percentage: number | null) => ({ groups: [{ properties: [], rollout_percentage: percentage }] })

export const personProperty = (key: string, value: unknown, operator = "exact") => ({ key, value, operator, type: "person" })

/** A release condition released to everyone it matches. */
export const conditionGroup = (properties: ReadonlyArray<unknown>, extra: object = {}) => ({ properties, rollout_percentage: 100, ...extra })

/** Variants `v0`, `v1`... with these rollout percentages. */
export const variants = (...percentages: ReadonlyArray<number>) => ({
  variants: percentages.map((rollout_percentage, i) => ({ key: `v${i}`, name: `Variant ${i}`, rollout_percentage }))
})

/** A dependency on another flag, by id (as PostHog requires). */
export const flagProperty = (key: string, operator = "flag_evaluates_to") => ({ key, value: true, operator, type: "flag" })

/** Every refusal of a flag's filters names the field `filters`. */
export const filtersError = (detail: string, code = "invalid_input") => invalid("filters", detail, code)

/** POSTs a flag body, whatever it is answered. */
export const postFlag = (target: Target, at: { readonly key: string; readonly project: number | string }, body: unknown) =>
  target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body })

/** Creates a flag and insists on 201; answers the flag. */
export const createFlag = async (
  target: Target,
  at: { readonly key: string; readonly project: number | string },
  body: Record<string, unknown>
): Promise<any> => {
  const reply = await postFlag(target, at, body)
  expectReply(reply, 201)
  return reply.body
}

export const patchFlag = (target: Target, at: { readonly key: string; readonly project: number | string }, id: number | string, body: unknown) =>
  target.call(FLAGS.update, { key: at.key, params: { project_id: at.project, id }, body })

export const getFlag = (target: Target, at: { readonly key: string; readonly project: number | string }, id: number | string) =>
  target.call(FLAGS.retrieve, { key: at.key, params: { project_id: at.project, id } })

/** One list page restricted by `search`, so that other scenarios' flags never show. */
export const listFlags = (
  target: Target,
  at: { readonly key: string; readonly project: number | string },
  query: Readonly<Record<string, string | number>>
) => target.call(FLAGS.list, { key: at.key, params: { project_id: at.project }, query })

export const keysOf = (reply: Reply): Array<string> => reply.body.results.map((flag: { key: string }) => flag.key)

/**
 * A pagination link as path plus its query as a sorted object: hosts differ between targets, and PostHog
 * sorts the parameters where Hedgerow keeps the request's order, which no client relies on.
 */
export const linkOf = (url: string | null) => {
  if (url === null) return null
  const parsed = new URL(url)
  return { path: parsed.pathname, query: Object.fromEntries([...parsed.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b))) }
}

/** PostHog's timestamps: UTC, microseconds and `Z`. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** A flag's fields in the API, plus the read-only ones PostHog's answer adds. */
export const FLAG_FIELDS = [
  "id", "name", "key", "filters", "deleted", "active", "created_by", "created_at", "is_simple_flag", "rollout_percentage",
  "ensure_experience_continuity", "experiment_set", "surveys", "features", "rollback_conditions", "performed_rollback",
  "can_edit", "tags", "usage_dashboard", "analytics_dashboards", "has_enriched_analytics", "user_access_level",
  "creation_context", "updated_at", "version", "last_modified_by", "status", "is_remote_configuration",
  "has_encrypted_payloads", "evaluation_runtime", "last_called_at"
]

export const assertFlagShape = (flag: Record<string, unknown>) => {
  const missing = FLAG_FIELDS.filter((field) => !(field in flag))
  assert.deepEqual(missing, [], "every FeatureFlag field is present")
  assert.equal(typeof flag["id"], "number")
  assert.match(String(flag["created_at"]), TIMESTAMP)
  assert.match(String(flag["updated_at"]), TIMESTAMP)
}
