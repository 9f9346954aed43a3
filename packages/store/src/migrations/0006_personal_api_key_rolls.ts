/** A personal API key's secret can be rolled over the API; PostHog shows when it last was. */
export default `
ALTER TABLE personal_api_keys ADD COLUMN last_rolled_at timestamptz;
CREATE INDEX personal_api_keys_list_idx ON personal_api_keys (user_id, created_at DESC, id DESC);
DROP INDEX personal_api_keys_user_idx;
`
