/**
 * A project's group types: the name SDKs give a kind of group (`company`), at one of the five indexes
 * a flag aggregates by. Both the name and the index are unique in the project, so registering a name
 * twice, or two names at one index, cannot both succeed whichever process tries; the check keeps the
 * indexes to 0-4. The change feed names the table, so every process's evaluation reads a change.
 */
export default `
CREATE TABLE group_types (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  group_type_index integer NOT NULL CHECK (group_type_index BETWEEN 0 AND 4),
  group_type text NOT NULL,
  name_singular text,
  name_plural text,
  default_columns text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, group_type_index),
  UNIQUE (project_id, group_type)
);

CREATE TRIGGER group_types_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_types FOR EACH STATEMENT EXECUTE FUNCTION hedgerow_notify_change();
`
