/**
 * A SAML request is answerable only from the browser that started it: each keeps the SHA-256 of that
 * browser's key, never the key. Requests in flight when this runs have none and are dropped; their
 * people start again.
 */
export default `
DELETE FROM saml_requests;
ALTER TABLE saml_requests ADD COLUMN browser_hash text NOT NULL;
`
