/**
 * Feature-flag lists and lookups. Columns core derives from a flag's filters at write time (SQL never
 * reads filters), a trigram index for the case-insensitive key/name search, and an index for every
 * other filter, lookup and foreign key the flag endpoints use.
 */
export default `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE feature_flags
  ADD COLUMN is_multivariate boolean NOT NULL DEFAULT false,
  ADD COLUMN fully_rolled_out boolean NOT NULL DEFAULT false,
  ADD COLUMN depends_on integer[] NOT NULL DEFAULT '{}';

-- search: key ILIKE '%…%' OR name ILIKE '%…%' over live flags. The planner cannot combine two trigram
-- indexes for that OR, so one index over both fields finds the candidates; the exact test beside it in
-- the query drops a match that only spans the separator.
CREATE INDEX feature_flags_search_trgm_idx ON feature_flags USING gin ((key || ' ' || name) gin_trgm_ops) WHERE NOT deleted;
-- tags: any of a list.
CREATE INDEX feature_flags_tags_idx ON feature_flags USING gin (tags) WHERE NOT deleted;
-- who depends on a flag (refusals to delete or disable it).
CREATE INDEX feature_flags_depends_on_idx ON feature_flags USING gin (depends_on) WHERE NOT deleted AND active;
-- active=STALE, newest first.
CREATE INDEX feature_flags_stale_idx ON feature_flags (project_id, created_at DESC, id DESC)
  WHERE NOT deleted AND active AND fully_rolled_out;
-- created_by_id (also the users foreign key), last modifier and usage dashboard foreign keys.
CREATE INDEX feature_flags_created_by_idx ON feature_flags (created_by_id, project_id) WHERE created_by_id IS NOT NULL;
CREATE INDEX feature_flags_last_modified_by_idx ON feature_flags (last_modified_by_id) WHERE last_modified_by_id IS NOT NULL;
CREATE INDEX feature_flags_usage_dashboard_idx ON feature_flags (usage_dashboard_id) WHERE usage_dashboard_id IS NOT NULL;

-- role access: a flag's grants by id.
CREATE INDEX feature_flag_role_access_flag_idx ON feature_flag_role_access (feature_flag_id, id);

-- users foreign keys of the records flags create.
CREATE INDEX dashboards_created_by_idx ON dashboards (created_by_id) WHERE created_by_id IS NOT NULL;
CREATE INDEX cohorts_created_by_idx ON cohorts (created_by_id) WHERE created_by_id IS NOT NULL;
CREATE INDEX activity_log_user_idx ON activity_log (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX roles_created_by_idx ON roles (created_by_id) WHERE created_by_id IS NOT NULL;
`
