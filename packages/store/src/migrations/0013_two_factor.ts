/**
 * Two-factor authentication. A user's authenticator app: its secret, kept as it is because every log-in
 * must compute codes from it (as webhooks' signing secrets are kept), the step of the last code taken,
 * and the failures that pace guesses. Backup codes, stored as hashes only, go with the app. A setup under
 * way belongs to the session that started it, and a log-in waiting for its code is stored as the hash of
 * its cookie's value; both expire after ten minutes. A browser remembered for a user's app (so that its
 * password log-ins ask for no code) is stored as the hash of its cookie's value too, and goes with the app.
 */
export default `
CREATE TABLE two_factor_devices (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  last_step integer,
  failure_count integer NOT NULL DEFAULT 0,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE two_factor_backup_codes (
  user_id integer NOT NULL REFERENCES two_factor_devices (user_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE two_factor_setups (
  session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  secret text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX two_factor_setups_expires_idx ON two_factor_setups (expires_at);

CREATE TABLE two_factor_remembered (
  secret_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES two_factor_devices (user_id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX two_factor_remembered_user_idx ON two_factor_remembered (user_id);
CREATE INDEX two_factor_remembered_expires_idx ON two_factor_remembered (expires_at);

CREATE TABLE two_factor_logins (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  secret_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX two_factor_logins_user_idx ON two_factor_logins (user_id);
CREATE INDEX two_factor_logins_expires_idx ON two_factor_logins (expires_at);
`
