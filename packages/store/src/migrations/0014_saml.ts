/**
 * SAML log-in: the AuthnRequests this deployment sent to a domain's identity provider, until they are
 * answered or expire (an answer must name one, once), and the assertions it accepted, per domain, until
 * their own times would refuse them (an assertion is accepted once). Both go with their domain. Kept in
 * the store, so every process sharing it judges a replay alike.
 */
export default `
CREATE TABLE saml_requests (
  id text PRIMARY KEY,
  domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX saml_requests_domain_idx ON saml_requests (domain_id);
CREATE INDEX saml_requests_expires_idx ON saml_requests (expires_at);

CREATE TABLE saml_assertions (
  domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (domain_id, id)
);
CREATE INDEX saml_assertions_expires_idx ON saml_assertions (expires_at);
`
