/**
 * Webhooks and their outbox. A trigger on `activity_log` records each entry of a project with an enabled
 * webhook in `webhook_changes`, in the transaction of the change, with the changed flag's row as that
 * transaction left it (found by its id and project, as the primary key's index serves; an `item_id` that
 * is no flag id finds none); so a change and its record commit together, whatever statement wrote them. The
 * delivery worker turns records into `webhook_deliveries`, one per subscribed webhook, numbered in the
 * order they were made (`seq`), and each attempt into a `webhook_attempts` row. Inserts into either
 * queue are named on the change feed at commit, which wakes the workers of every process without a
 * connection of their own. Function bodies keep their semicolons off line ends.
 */
export default `
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_project_idx ON webhooks (project_id, created_at, id);

CREATE TABLE webhook_changes (
  id bigserial PRIMARY KEY,
  activity_id uuid NOT NULL,
  project_id integer NOT NULL,
  item jsonb
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz DEFAULT now(),
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, seq);
CREATE INDEX webhook_deliveries_ended_idx ON webhook_deliveries ((COALESCE(delivered_at, created_at))) WHERE status <> 'pending';

CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  response text,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);

CREATE FUNCTION hedgerow_webhook_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.project_id IS NOT NULL AND EXISTS (SELECT 1 FROM webhooks w WHERE w.project_id = NEW.project_id AND w.enabled) THEN INSERT INTO webhook_changes (activity_id, project_id, item) VALUES (NEW.id, NEW.project_id, CASE WHEN NEW.scope = 'FeatureFlag' AND NEW.item_id ~ '^[0-9]{1,9}$' THEN (SELECT to_jsonb(f) FROM feature_flags f WHERE f.id = NEW.item_id::integer AND f.project_id = NEW.project_id) END); END IF; RETURN NULL; END $$;
CREATE TRIGGER activity_log_webhooks AFTER INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION hedgerow_webhook_change();

CREATE TRIGGER webhook_changes_work AFTER INSERT ON webhook_changes FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
CREATE TRIGGER webhook_deliveries_work AFTER INSERT ON webhook_deliveries FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
