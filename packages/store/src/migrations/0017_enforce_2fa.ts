/**
 * The organization's two-factor rule, and the session's second factor. `enforce_2fa` is PostHog's
 * setting (null until someone sets it, which reads as off). A session records whether its log-in passed
 * the second factor: an authenticator app's code, a browser remembered for that app, or an identity
 * provider. Authentication reads both, with the user's app, in the one query that already finds the
 * session, so the change feed names the apps' table too: turning an app on or off reaches every
 * process's memory.
 */
export default `
ALTER TABLE organizations ADD COLUMN enforce_2fa boolean;
ALTER TABLE sessions ADD COLUMN two_factor_verified boolean NOT NULL DEFAULT false;

CREATE TRIGGER two_factor_devices_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON two_factor_devices FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
