import { Context, Data, Effect } from "effect"
import type { OAuthProvider } from "../providers.ts"

/** The provider could not be reached, or answered what a log-in cannot use; `reason` says which, for the log. */
export class OAuthProviderFailed extends Data.TaggedError("OAuthProviderFailed")<{ readonly reason: string }> {}

/** What goes into the provider's authorization URL beside the client's own id and scopes. */
export interface AuthorizationRequest {
  readonly provider: OAuthProvider
  readonly redirectUri: string
  readonly state: string
  /** For OpenID providers; GitHub has no ID token to carry it back. */
  readonly nonce: string
  /** PKCE, method S256. */
  readonly codeChallenge: string
}

/** The code the provider sent the browser back with, to trade at its token endpoint. */
export interface CodeExchange {
  readonly provider: OAuthProvider
  readonly redirectUri: string
  readonly code: string
  readonly codeVerifier: string
}

/**
 * What the provider said of the person, as received: from an OpenID provider, the claims of an ID token
 * whose signature, issuer, audience and expiry the client has checked; from GitHub, its `/user` and
 * `/user/emails` answers. Whether that makes an acceptable identity is core's rule (identity.ts).
 */
export type ProviderAnswer =
  | { readonly kind: "id_token"; readonly claims: Readonly<Record<string, unknown>> }
  | { readonly kind: "github"; readonly user: unknown; readonly emails: unknown }

export interface OAuthClientShape {
  /** Where to send the browser to log in with the provider. */
  readonly authorizationUrl: (request: AuthorizationRequest) => Effect.Effect<string, OAuthProviderFailed>
  /** Trades the code (with the client's secret and the PKCE verifier) for what the provider says of the person. */
  readonly exchange: (request: CodeExchange) => Effect.Effect<ProviderAnswer, OAuthProviderFailed>
}

/**
 * The port to the providers over HTTP. Without one (the default) no provider is reachable, as none is
 * configured: SsoSettings names none either, so no log-in gets this far.
 */
export const OAuthClient = Context.Reference<OAuthClientShape>("hedgerow/OAuthClient", {
  defaultValue: () => ({
    authorizationUrl: (request) => Effect.fail(new OAuthProviderFailed({ reason: `${request.provider} is not configured` })),
    exchange: (request) => Effect.fail(new OAuthProviderFailed({ reason: `${request.provider} is not configured` }))
  })
})
