import { Clock, Context, Effect, Layer, Option } from "effect"
import { sessionOf } from "../../auth/actor.ts"
import { Authentication } from "../../auth/authenticate.ts"
import type { SetCookie } from "../../sessions/cookies.ts"
import type { SessionRequest } from "../../sessions/request.ts"
import { secureValueOf } from "../../shared/secrets.ts"
import { isSecureSite, SiteSettings } from "../../shared/site.ts"
import { millisOf } from "../../shared/time.ts"
import { Transactions } from "../../shared/transactions.ts"
import { type OAuthProvider, SSO_PROVIDERS, SsoSettings } from "../providers.ts"
import { isBrowserKey } from "../browser-key.ts"
import { SsoSignIn } from "../sign-in.ts"
import { SSO_THROTTLED_CODE, SsoThrottle } from "../throttle.ts"
import { OAuthClient } from "./client.ts"
import { identityFromAnswer } from "./identity.ts"
import {
  clearOauthLoginCookie,
  codeChallengeOf,
  newPendingLogin,
  oauthLoginCookie,
  type PendingOAuthLogin,
  secretsOf,
  stateMatches
} from "./pending-login.ts"
import { OAuthLoginRepository } from "./repository.ts"

/** Where a browser is sent next, with the cookies to set on the way. */
export interface BrowserRedirect {
  readonly location: string
  readonly cookies: ReadonlyArray<SetCookie>
}

/** What a start or a completion reads of the browser's request: its session (replaced by a log-in) and the pending log-in's cookie. */
export interface OAuthBrowserRequest {
  readonly session: SessionRequest
  readonly browserKey: string | undefined
}

/** The provider's answer on the redirect URI's query. */
export interface OAuthCallback {
  readonly state: string | undefined
  readonly code: string | undefined
  readonly error: string | undefined
}

/**
 * The log-in page's error codes, PostHog's: an unknown provider, one this deployment has not configured
 * (or could not reach to start), a log-in the person cancelled at the provider, and every other failure.
 */
const INVALID_PROVIDER = "invalid_sso_provider"
const NOT_CONFIGURED = "improperly_configured_sso"
const CANCELLED = "oauth_cancelled"
const FAILED = "social_login_failure"

/** Every SSO provider's name, `saml` included: the page's codes tell an unknown name from a known one this route does not start. */
const SSO_PROVIDER_NAMES: ReadonlySet<string> = new Set(SSO_PROVIDERS)

/** The address the provider sends the browser back to, which the operator registers with it: PostHog's path. */
export const redirectUriOf = (siteUrl: string, provider: OAuthProvider): string => `${siteUrl}/complete/${provider}/`

/**
 * OAuth log-in: a start sends the browser to the provider with a new pending log-in (state, nonce and a
 * PKCE challenge), kept in the store and tied to the browser by a cookie; a completion takes that pending
 * log-in (once), checks the state, trades the code, judges the identity and ends in SsoSignIn, the one
 * place every SSO log-in ends. Every outcome is a redirect: the console on success, else its log-in page
 * with an error code.
 */
export class OAuthLogin extends Context.Service<OAuthLogin, {
  /** `GET /login/<provider>/?next=<path>`: `next` is the console's page to open once logged in. */
  readonly begin: (provider: string, request: OAuthBrowserRequest, next: string | undefined) => Effect.Effect<BrowserRedirect>
  /** `GET /complete/<provider>/`. */
  readonly complete: (provider: string, callback: OAuthCallback, request: OAuthBrowserRequest) => Effect.Effect<BrowserRedirect>
}>()("hedgerow/OAuthLogin") {
  static readonly layerNoDeps = Layer.effect(
    OAuthLogin,
    Effect.gen(function*() {
      const pendingLogins = yield* OAuthLoginRepository
      const transactions = yield* Transactions
      const authentication = yield* Authentication
      const signIn = yield* SsoSignIn
      const site = yield* SiteSettings
      const sso = yield* SsoSettings
      const client = yield* OAuthClient
      const throttle = yield* SsoThrottle
      const secure = isSecureSite(site)
      // Paths on the host the browser is on, under the site's path prefix.
      const sitePath = new URL(site.url).pathname.replace(/\/+$/, "")
      const loginPage = (code: string) => ({ location: `${sitePath}/login?error_code=${code}`, cookies: [clearOauthLoginCookie(secure)] })

      /** The configured OAuth provider `name` names, or the page's code for why there is none. */
      const configured = (name: string): OAuthProvider | typeof INVALID_PROVIDER | typeof NOT_CONFIGURED => {
        if (!SSO_PROVIDER_NAMES.has(name)) return INVALID_PROVIDER
        return sso.oauth.has(name as OAuthProvider) ? name as OAuthProvider : NOT_CONFIGURED
      }

      const failed = (provider: string, reason: string, code = FAILED) =>
        Effect.as(Effect.logWarning(`OAuth log-in with ${provider} refused (${code}): ${reason}`), loginPage(code))

      const begin = Effect.fn("OAuthLogin.begin")(function*(name: string, request: OAuthBrowserRequest, next: string | undefined) {
        // A refused start leaves the browser's pending log-in, if any, as it was.
        const admitted = yield* throttle.start(request.session.clientAddress).pipe(Effect.result)
        if (admitted._tag === "Failure") {
          const query = new URLSearchParams({ error_code: SSO_THROTTLED_CODE, error_detail: admitted.failure.detail })
          return { location: `${sitePath}/login?${query}`, cookies: [] } satisfies BrowserRedirect
        }
        const provider = configured(name)
        if (provider === INVALID_PROVIDER || provider === NOT_CONFIGURED) return loginPage(provider)
        const { browserKey, state, nonce, codeVerifier, pending } = newPendingLogin(provider, next, yield* Clock.currentTimeMillis)
        const authorization = yield* client.authorizationUrl({
          provider,
          redirectUri: redirectUriOf(site.url, provider),
          state,
          nonce,
          codeChallenge: codeChallengeOf(codeVerifier)
        }).pipe(Effect.result)
        // A provider that cannot be reached to start is a configuration the operator must fix, as PostHog says.
        if (authorization._tag === "Failure") return yield* failed(provider, authorization.failure.reason, NOT_CONFIGURED)
        yield* transactions.run(Effect.gen(function*() {
          yield* pendingLogins.removeExpired
          // A browser keeps one pending log-in: the one it started before is dropped.
          if (request.browserKey !== undefined && isBrowserKey(request.browserKey)) {
            yield* pendingLogins.take(secureValueOf(request.browserKey))
          }
          yield* pendingLogins.insert(pending)
        }))
        return { location: authorization.success, cookies: [oauthLoginCookie(browserKey, secure)] } satisfies BrowserRedirect
      })

      /**
       * The browser's pending log-in for `provider` with the cookie that took it, taken from the store
       * whatever follows, when the state matches it; else why not.
       */
      const pendingFor = (provider: OAuthProvider, callback: OAuthCallback, request: OAuthBrowserRequest) =>
        Effect.gen(function*() {
          if (request.browserKey === undefined || !isBrowserKey(request.browserKey)) {
            return "this browser started no log-in (no cookie of its own)"
          }
          const taken = yield* transactions.single(pendingLogins.take(secureValueOf(request.browserKey)))
          if (Option.isNone(taken)) return "this browser has no pending log-in (used, replaced or never started)"
          const pending: PendingOAuthLogin = taken.value
          if (millisOf(pending.expires_at) <= (yield* Clock.currentTimeMillis)) return "the pending log-in expired"
          if (pending.provider !== provider) return `the pending log-in is for ${pending.provider}`
          if (callback.state === undefined || !stateMatches(pending, callback.state)) return "the state is not this browser's"
          return { pending, browserKey: request.browserKey }
        })

      const complete = Effect.fn("OAuthLogin.complete")(function*(name: string, callback: OAuthCallback, request: OAuthBrowserRequest) {
        const provider = configured(name)
        if (provider === INVALID_PROVIDER || provider === NOT_CONFIGURED) return loginPage(provider)
        const taken = yield* pendingFor(provider, callback, request)
        if (callback.error !== undefined) {
          // The code goes to the log only in the form error codes take: the query is anyone's to write.
          const named = /^[A-Za-z0-9_.-]{1,64}$/.test(callback.error) ? callback.error : "an error"
          return yield* failed(provider, `the provider answered ${named}`, callback.error === "access_denied" ? CANCELLED : FAILED)
        }
        if (typeof taken === "string") return yield* failed(provider, taken)
        if (callback.code === undefined || callback.code === "") return yield* failed(provider, "the provider sent no code")
        const redirectUri = redirectUriOf(site.url, provider)
        // The cookie that took this pending log-in from the store is the one its secrets derive from.
        const { nonce, codeVerifier } = secretsOf(taken.browserKey)
        const answer = yield* client.exchange({ provider, redirectUri, code: callback.code, codeVerifier }).pipe(Effect.result)
        if (answer._tag === "Failure") return yield* failed(provider, answer.failure.reason)
        const identity = yield* identityFromAnswer(provider, answer.success, nonce).pipe(Effect.result)
        if (identity._tag === "Failure") return yield* failed(provider, identity.failure.reason)
        const current = yield* authentication.session(request.session).pipe(Effect.orElseSucceed(() => Option.none()))
        const replacing = Option.getOrUndefined(Option.flatMapNullishOr(current, (actor) => sessionOf(actor)?.session_id))
        const loggedIn = yield* signIn.signIn(identity.success, replacing).pipe(Effect.result)
        if (loggedIn._tag === "Failure") return yield* failed(provider, loggedIn.failure.detail, loggedIn.failure.code)
        return { location: `${sitePath}${taken.pending.next}`, cookies: [...loggedIn.success.cookies, clearOauthLoginCookie(secure)] } satisfies BrowserRedirect
      })

      return OAuthLogin.of({ begin, complete })
    })
  )
}
