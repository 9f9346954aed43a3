/**
 * The CLI's log-in through the browser: each device authorization is stored by the SHA-256 of its two
 * codes, never the codes, and lives ten minutes. An approval names its user and project (and goes with
 * either); no key is stored here, since the key is made by the poll that hands it over. No cache reads
 * the table, so it is not on the change feed.
 */
export default `
CREATE TABLE cli_auth_requests (
  id uuid PRIMARY KEY,
  device_code_hash text NOT NULL UNIQUE,
  user_code_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  last_polled_at timestamptz,
  approved_by integer REFERENCES users (id) ON DELETE CASCADE,
  project_id integer REFERENCES projects (id) ON DELETE CASCADE,
  label text
);
CREATE INDEX cli_auth_requests_expires_idx ON cli_auth_requests (expires_at);
`
