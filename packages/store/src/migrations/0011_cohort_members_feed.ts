/**
 * The change feed names `cohort_members` too: evaluation holds short static lists in memory, and a
 * member written by any statement (the API's, or an operator's import straight into the database) must
 * reach every process's copy, as a flag's change does.
 */
export default `
CREATE TRIGGER cohort_members_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cohort_members FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
