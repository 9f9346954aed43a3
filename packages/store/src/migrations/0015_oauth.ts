/**
 * OAuth log-in: the log-ins sent to a provider and not yet back, each found by the SHA-256 of its
 * browser's cookie and used once, with the SHA-256 of its state and the page to open after it. A row
 * lives minutes: each start clears the expired ones.
 */
export default `
CREATE TABLE oauth_pending_logins (
  browser_hash text PRIMARY KEY,
  provider text NOT NULL,
  state_hash text NOT NULL,
  next text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX oauth_pending_logins_expires_idx ON oauth_pending_logins (expires_at);
`
