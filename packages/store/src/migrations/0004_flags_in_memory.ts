/**
 * The flag list filters, sorts and searches a project's live flags in memory (core's read model), so the
 * indexes that served those filters in SQL only slow every flag write down. The read model keeps a
 * project's flags up to date row by row, so the change feed names each flag written
 * (`feature_flags:<project>:<id>`) instead of the table alone; emptying the table still names the table.
 */
export default `
DROP INDEX feature_flags_search_trgm_idx;
DROP INDEX feature_flags_tags_idx;
DROP INDEX feature_flags_stale_idx;

CREATE FUNCTION hedgerow_notify_flag_change() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE flag feature_flags := coalesce(NEW, OLD); BEGIN PERFORM pg_notify('hedgerow_changes', 'feature_flags:' || flag.project_id || ':' || flag.id); RETURN NULL; END $$;

DROP TRIGGER feature_flags_changes ON feature_flags;
CREATE TRIGGER feature_flags_row_changes AFTER INSERT OR UPDATE OR DELETE ON feature_flags FOR EACH ROW EXECUTE FUNCTION hedgerow_notify_flag_change();
CREATE TRIGGER feature_flags_emptied AFTER TRUNCATE ON feature_flags FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
