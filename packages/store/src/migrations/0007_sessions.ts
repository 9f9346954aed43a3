/**
 * Log-in: a user's password, as its scrypt hash only (null: none set yet), and the sessions that log-ins
 * open, each stored as the SHA-256 of its secret (the cookie's value), never the secret itself. A
 * session goes with its user. The change feed names the sessions table, so a log-out or a password
 * change ends a session in every process's memory.
 */
export default `
ALTER TABLE users ADD COLUMN password_hash text;

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TRIGGER sessions_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
