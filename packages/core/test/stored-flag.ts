import type { StoredFlag } from "../src/feature-flags/model.ts"
import type { FeatureFlagId, ProjectId } from "../src/shared/ids.ts"
import { timestampFromDate } from "../src/shared/time.ts"

const NEW_YEAR = timestampFromDate(new Date("2026-01-01T00:00:00Z"))

/** A stored flag as the store reads one, with the fields a test cares about. */
export const storedFlag = (fields: Partial<StoredFlag> = {}): StoredFlag => ({
  id: 1 as FeatureFlagId,
  project_id: 1 as ProjectId,
  key: "beta",
  name: "",
  filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
  deleted: false,
  active: true,
  version: 1,
  ensure_experience_continuity: false,
  rollback_conditions: null,
  performed_rollback: false,
  tags: [],
  usage_dashboard_id: null,
  analytics_dashboards: [],
  has_enriched_analytics: false,
  is_remote_configuration: false,
  has_encrypted_payloads: false,
  evaluation_runtime: "all",
  creation_context: "feature_flags",
  created_by_id: null,
  last_modified_by_id: null,
  created_at: NEW_YEAR,
  updated_at: NEW_YEAR,
  created_by: null,
  last_modified_by: null,
  ...fields
})
