import { runScript } from "./script.ts"

/**
 * The outbox trigger finds the changed flag by its primary key and project. It compared `id::text` with
 * the entry's `item_id`, which no index serves: every change in a project with a webhook read every
 * tenant's flags. An `item_id` that is not a flag id finds no row rather than failing the change.
 */
export default runScript(`
CREATE OR REPLACE FUNCTION hedgerow_webhook_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.project_id IS NOT NULL AND EXISTS (SELECT 1 FROM webhooks w WHERE w.project_id = NEW.project_id AND w.enabled) THEN INSERT INTO webhook_changes (activity_id, project_id, item) VALUES (NEW.id, NEW.project_id, CASE WHEN NEW.scope = 'FeatureFlag' AND NEW.item_id ~ '^[0-9]{1,9}$' THEN (SELECT to_jsonb(f) FROM feature_flags f WHERE f.id = NEW.item_id::integer AND f.project_id = NEW.project_id) END); END IF; RETURN NULL; END $$;
`)
