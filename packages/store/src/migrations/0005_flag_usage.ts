/**
 * `last_called_at`, PostHog's column: when a flag was last evaluated. Only the usage write sets it, and it
 * sets nothing else, so an update that changes it is that write: the row trigger then stays silent (the
 * write names each project on the feed itself, see the flag usage repository), and a mark never makes a
 * process read a flag again or prepare its project's evaluation again. Every other update of a flag is
 * notified row by row. The fill factor leaves room on each page for those frequent updates to stay on
 * their row's page (HOT), touching no index.
 */
export default `
ALTER TABLE feature_flags ADD COLUMN last_called_at timestamptz;
ALTER TABLE feature_flags SET (fillfactor = 90);

DROP TRIGGER feature_flags_row_changes ON feature_flags;
CREATE TRIGGER feature_flags_row_changes AFTER INSERT OR DELETE ON feature_flags FOR EACH ROW EXECUTE FUNCTION hedgerow_notify_flag_change();
CREATE TRIGGER feature_flags_row_updates AFTER UPDATE ON feature_flags FOR EACH ROW WHEN (OLD.last_called_at IS NOT DISTINCT FROM NEW.last_called_at) EXECUTE FUNCTION hedgerow_notify_flag_change();
`
