import { createHash } from "node:crypto"
import { definedCohortsReached } from "../cohorts/graph.ts"
import { definitionFilters } from "../evaluation/definitions.ts"
import type { PreparedFlags } from "../evaluation/model.ts"
import { cohortIdsIn } from "../feature-flags/conditions.ts"
import type { JsonRecord } from "../shared/fields.ts"
import type { DefinitionFlag, Definitions, LocalEvaluationDefinitions } from "./model.ts"
import type { FlagSnapshot } from "./snapshot.ts"

/**
 * The definitions for local evaluation, made once per snapshot and per cohort choice. As PostHog's:
 * every flag that is not deleted, but remote configuration flags, which are fetched one by one; the
 * cohorts only when asked (`send_cohorts`), and then only the dynamic ones the flags name, directly or
 * through another cohort. Without `send_cohorts` PostHog also rewrites a flag on one simple cohort into
 * that cohort's properties; here such a flag is sent as it is, and the SDK asks `/flags` about it.
 */
export const definitionsOf = (snapshot: FlagSnapshot, sendCohorts: boolean): Definitions => {
  let kept = made.get(snapshot)
  if (kept === undefined) made.set(snapshot, kept = {})
  const slot = sendCohorts ? "withCohorts" : "withoutCohorts"
  return kept[slot] ??= make(snapshot, sendCohorts)
}

const made = new WeakMap<FlagSnapshot, { withCohorts?: Definitions; withoutCohorts?: Definitions }>()

const make = ({ project, prepared }: FlagSnapshot, sendCohorts: boolean): Definitions => {
  const sent = prepared.flags.filter((flag) => !flag.flag.is_remote_configuration)
  const flags = sent.map((flag): DefinitionFlag => ({
    id: flag.flag.id,
    team_id: project,
    name: flag.flag.name,
    key: flag.key,
    filters: definitionFilters(prepared, flag),
    deleted: flag.flag.deleted,
    active: flag.flag.active,
    ensure_experience_continuity: flag.flag.ensure_experience_continuity,
    version: flag.flag.version,
    evaluation_runtime: flag.flag.evaluation_runtime,
    bucketing_identifier: flag.flag.bucketing_identifier ?? null
  }))
  const body: LocalEvaluationDefinitions = {
    flags,
    group_type_mapping: prepared.groupTypes,
    cohorts: sendCohorts ? namedCohorts(prepared, sent) : {}
  }
  const json = JSON.stringify(body)
  return { body, json, etag: `W/"${createHash("sha256").update(json).digest("hex").slice(0, 32)}"` }
}

/** The dynamic cohorts the flags name, and those they name in turn, by id as text, in id order. */
const namedCohorts = (prepared: PreparedFlags, flags: PreparedFlags["flags"]): Record<string, JsonRecord> => {
  const named = definedCohortsReached(flags.flatMap((flag) => cohortIdsIn(flag.conditions)), prepared.cohorts)
  return Object.fromEntries([...named].sort((a, b) => a - b).map((id) => [String(id), prepared.cohorts.get(String(id))!]))
}
