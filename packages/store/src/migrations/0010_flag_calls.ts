/**
 * The flags' calls the SDKs report (`$feature_flag_called` events), counted per flag, UTC day and value
 * returned: one row per (flag, day, value), added to in batches. A flag's rows go with it.
 */
export default `
CREATE TABLE feature_flag_calls (
  flag_id integer NOT NULL REFERENCES feature_flags (id) ON DELETE CASCADE,
  day date NOT NULL,
  value text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (flag_id, day, value)
);
`
