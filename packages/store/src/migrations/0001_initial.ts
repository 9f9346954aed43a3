/**
 * The whole data model. Plain PostgreSQL only (no PGlite-only features), so the same file runs on the
 * embedded store and on a server. Every list order and lookup has an index; ties are broken by id.
 */
export default `
CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  distinct_id text NOT NULL UNIQUE,
  email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  is_email_verified boolean NOT NULL DEFAULT false,
  hedgehog_config jsonb,
  role_at_organization text,
  current_organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL,
  current_project_id integer,
  is_active boolean NOT NULL DEFAULT true,
  last_login timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  level smallint NOT NULL CHECK (level IN (1, 8, 15)),
  joined_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memberships_organization_user_key UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);
CREATE INDEX memberships_list_idx ON memberships (organization_id, joined_at DESC, id DESC);

CREATE TABLE personal_api_keys (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label text NOT NULL DEFAULT '',
  secure_value text NOT NULL UNIQUE,
  mask_value text NOT NULL,
  scopes text[] NOT NULL,
  scoped_organizations uuid[],
  scoped_teams integer[],
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX personal_api_keys_user_idx ON personal_api_keys (user_id);

CREATE TABLE projects (
  id serial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  api_token text NOT NULL UNIQUE,
  ingested_event boolean NOT NULL DEFAULT false,
  settings jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_organization_idx ON projects (organization_id, id);
ALTER TABLE users ADD CONSTRAINT users_current_project_fkey
  FOREIGN KEY (current_project_id) REFERENCES projects (id) ON DELETE SET NULL;
-- Deleting a project or organization clears users' pointers to it; these keep that from scanning users.
CREATE INDEX users_current_project_idx ON users (current_project_id) WHERE current_project_id IS NOT NULL;
CREATE INDEX users_current_organization_idx ON users (current_organization_id) WHERE current_organization_id IS NOT NULL;

CREATE TABLE roles (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  feature_flags_access_level smallint NOT NULL DEFAULT 37 CHECK (feature_flags_access_level IN (21, 37)),
  created_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_organization_name_key ON roles (organization_id, lower(name));

CREATE TABLE role_memberships (
  id uuid PRIMARY KEY,
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT role_memberships_role_user_key UNIQUE (role_id, user_id)
);
CREATE INDEX role_memberships_user_idx ON role_memberships (user_id);

CREATE TABLE dashboards (
  id serial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  creation_mode text NOT NULL DEFAULT 'default',
  tiles jsonb NOT NULL DEFAULT '[]',
  created_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX dashboards_project_idx ON dashboards (project_id, id);

CREATE TABLE cohorts (
  id serial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  groups jsonb NOT NULL DEFAULT '[]',
  filters jsonb,
  is_static boolean NOT NULL DEFAULT false,
  is_calculating boolean NOT NULL DEFAULT false,
  count integer,
  created_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX cohorts_project_idx ON cohorts (project_id, id);

-- Keys stay unique per project across deleted rows too: a new flag taking a deleted flag's key renames
-- the deleted one's to a tombstone, so no flag is ever hard-deleted and its history stays attached.
CREATE TABLE feature_flags (
  id serial PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key text NOT NULL,
  name text NOT NULL DEFAULT '',
  filters jsonb NOT NULL DEFAULT '{}',
  deleted boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  ensure_experience_continuity boolean NOT NULL DEFAULT false,
  rollback_conditions jsonb,
  performed_rollback boolean NOT NULL DEFAULT false,
  tags text[] NOT NULL DEFAULT '{}',
  usage_dashboard_id integer REFERENCES dashboards (id) ON DELETE SET NULL,
  analytics_dashboards integer[] NOT NULL DEFAULT '{}',
  has_enriched_analytics boolean NOT NULL DEFAULT false,
  is_remote_configuration boolean NOT NULL DEFAULT false,
  has_encrypted_payloads boolean NOT NULL DEFAULT false,
  evaluation_runtime text NOT NULL DEFAULT 'all',
  creation_context text NOT NULL DEFAULT 'feature_flags',
  created_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  last_modified_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT feature_flags_project_key_key UNIQUE (project_id, key)
);
CREATE INDEX feature_flags_list_idx ON feature_flags (project_id, created_at DESC, id DESC) WHERE NOT deleted;

CREATE TABLE feature_flag_role_access (
  id serial PRIMARY KEY,
  feature_flag_id integer NOT NULL REFERENCES feature_flags (id) ON DELETE CASCADE,
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT feature_flag_role_access_flag_role_key UNIQUE (feature_flag_id, role_id)
);
CREATE INDEX feature_flag_role_access_role_idx ON feature_flag_role_access (role_id);

CREATE TABLE activity_log (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  project_id integer REFERENCES projects (id) ON DELETE CASCADE,
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  is_system boolean NOT NULL DEFAULT false,
  activity text NOT NULL,
  scope text NOT NULL,
  item_id text NOT NULL,
  detail jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_log_scope_idx ON activity_log (project_id, scope, created_at DESC, id DESC);
CREATE INDEX activity_log_item_idx ON activity_log (project_id, scope, item_id, created_at DESC, id DESC);

CREATE TABLE domains (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  domain text NOT NULL UNIQUE,
  verification_challenge text NOT NULL,
  verified_at timestamptz,
  last_verification_retry timestamptz,
  jit_provisioning_enabled boolean NOT NULL DEFAULT false,
  sso_enforcement text NOT NULL DEFAULT '',
  saml_entity_id text,
  saml_acs_url text,
  saml_x509_cert text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX domains_list_idx ON domains (organization_id, domain);

CREATE TABLE invites (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  target_email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  level smallint NOT NULL DEFAULT 1 CHECK (level IN (1, 8, 15)),
  message text,
  private_project_access jsonb NOT NULL DEFAULT '[]',
  emailing_attempt_made boolean NOT NULL DEFAULT false,
  created_by_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invites_list_idx ON invites (organization_id, created_at DESC, id DESC);
CREATE INDEX invites_email_idx ON invites (organization_id, lower(target_email));

CREATE TABLE email_outbox (
  id uuid PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  kind text NOT NULL,
  related_id text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX email_outbox_pending_idx ON email_outbox (created_at, id) WHERE sent_at IS NULL;

CREATE TABLE batch_exports (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  model text NOT NULL DEFAULT 'events' CHECK (model IN ('events', 'persons')),
  destination jsonb NOT NULL DEFAULT '{}',
  interval text NOT NULL DEFAULT 'hour',
  paused boolean NOT NULL DEFAULT false,
  last_paused_at timestamptz,
  start_at timestamptz,
  end_at timestamptz,
  hogql_query text NOT NULL DEFAULT '',
  deleted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batch_exports_organization_idx ON batch_exports (organization_id, id);
CREATE INDEX batch_exports_project_idx ON batch_exports (project_id);
`
