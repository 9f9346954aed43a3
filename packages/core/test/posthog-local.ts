import { PostHog } from "posthog-node"
import { definitionFilters } from "../src/evaluation/definitions.ts"
import type { PreparedFlags } from "../src/evaluation/model.ts"

/**
 * posthog-node evaluating the prepared flags locally, as it does with the definitions Hedgerow serves:
 * its only request, for the definitions, is answered in-process; nothing else is sent.
 */
export const localClient = (prepared: PreparedFlags, cohorts: Readonly<Record<string, unknown>> = {}): PostHog => {
  const definitions = {
    flags: prepared.flags.map((flag) => ({
      id: flag.flag.id,
      team_id: 1,
      name: flag.flag.name,
      key: flag.key,
      filters: definitionFilters(prepared, flag),
      deleted: false,
      active: flag.flag.active,
      ensure_experience_continuity: flag.flag.ensure_experience_continuity,
      version: flag.flag.version,
      evaluation_runtime: flag.flag.evaluation_runtime,
      bucketing_identifier: flag.flag.bucketing_identifier ?? null
    })),
    group_type_mapping: prepared.groupTypes,
    cohorts
  }
  return new PostHog("phc_test", {
    host: "http://127.0.0.1:9",
    personalApiKey: "phx_test",
    featureFlagsPollingInterval: null,
    disableGeoip: true,
    fetch: async (url) => {
      const body = url.includes("/flags/definitions") ? definitions : {}
      return {
        status: 200,
        headers: new Headers(),
        text: async () => JSON.stringify(body),
        json: async () => JSON.parse(JSON.stringify(body))
      } as never
    }
  })
}
