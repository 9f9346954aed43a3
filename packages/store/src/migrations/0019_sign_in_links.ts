/**
 * One-time sign-in links: each stored by the SHA-256 of its secret, never the secret, with its user and
 * when it stops working; one per user at most (a new link replaces the old). A link's use deletes its
 * row. No cache reads the table, so it is not on the change feed.
 */
export default `
CREATE TABLE sign_in_links (
  secret_hash text PRIMARY KEY,
  user_id integer NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_links_expires_idx ON sign_in_links (expires_at);
`
