/**
 * The change feed: every statement that writes one of these tables notifies `hedgerow_changes` with the
 * table's name. PostgreSQL delivers a notification when its transaction commits, to every listening
 * session, so each process's in-memory read model hears of every committed write, whichever process (a
 * server, an admin command) made it. The function body keeps its semicolons off line ends, where the
 * script runner cuts statements.
 */
export default `
CREATE FUNCTION hedgerow_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('hedgerow_changes', TG_TABLE_NAME); RETURN NULL; END $$;

CREATE TRIGGER users_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER personal_api_keys_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON personal_api_keys FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER memberships_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER organizations_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER projects_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projects FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER roles_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER role_memberships_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_memberships FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER feature_flags_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON feature_flags FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER cohorts_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cohorts FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER feature_flag_role_access_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON feature_flag_role_access FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
