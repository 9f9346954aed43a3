import { Clock, Context, Effect, Layer, Option } from "effect"
import { sessionOf } from "../../auth/actor.ts"
import { Authentication } from "../../auth/authenticate.ts"
import type { DomainRecord } from "../../domains/model.ts"
import type { DomainRepository } from "../../domains/repository.ts"
import type { LoggedIn } from "../../sessions/open.ts"
import type { SetCookie } from "../../sessions/cookies.ts"
import type { SessionRequest } from "../../sessions/request.ts"
import type { Throttled } from "../../shared/errors.ts"
import type { DomainId } from "../../shared/ids.ts"
import { randomBase62, secureValueOf } from "../../shared/secrets.ts"
import { SiteSettings } from "../../shared/site.ts"
import { Transactions } from "../../shared/transactions.ts"
import { domainPartOf, hasSaml, verifiedDomainOf } from "../domain-of-email.ts"
import type { SsoRefused } from "../refusal.ts"
import { newBrowserKey } from "../browser-key.ts"
import { safeNextPath } from "../next-path.ts"
import { SsoSignIn } from "../sign-in.ts"
import { SsoThrottle } from "../throttle.ts"
import { clearSamlLoginCookie, samlLoginCookie, startedByThisBrowser } from "./browser-binding.ts"
import { checkResponse } from "./checks.ts"
import { identityOf } from "./identity.ts"
import { SamlNotConfigured, SamlRejected } from "./rejected.ts"
import { readRelayState, relayStateOf } from "./relay-state.ts"
import { SamlRepository } from "./repository.ts"
import { REQUEST_LIFETIME_MS, type ServiceProvider, serviceProviderOf } from "./service-provider.ts"
import { SamlSignature } from "./signature.ts"

/** An AuthnRequest to send the browser to the domain's identity provider with, which the adapter encodes. */
export interface AuthnRequest {
  /** The request's ID, which the answer must name in InResponseTo. */
  readonly id: string
  readonly issue_instant: string
  /** The identity provider's sign-in URL: the domain's `saml_acs_url`, as PostHog names the field. */
  readonly destination: string
  /** The domain's id (and the page to return to), which the identity provider sends back beside its answer, as PostHog's RelayState does. */
  readonly relay_state: string
  readonly service_provider: ServiceProvider
  /** The cookie that binds the request to this browser (see browser-binding.ts). */
  readonly cookie: SetCookie
}

/** A SAML log-in that succeeded: its session's cookies, and the page of this site to go to. */
export interface SamlLoggedIn extends LoggedIn {
  readonly next: string
}

/** The identity provider's answer as the browser posted it to the ACS. */
export interface SamlAnswer {
  /** The Response's XML, decoded from the form's base64. */
  readonly document: string
  readonly relay_state: string | undefined
  /** The browser's SAML_LOGIN_COOKIE, when it sent one. */
  readonly browser_key: string | undefined
}

const INVALID_RELAY_STATE = "Authentication request is invalid. Invalid RelayState."

/** The identity provider's sign-in URL must be one a browser can be sent to. */
const isWebUrl = (text: string): boolean =>
  URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol)

const fromChecked = <A>(outcome: A | SamlRejected): Effect.Effect<A, SamlRejected> =>
  outcome instanceof SamlRejected ? Effect.fail(outcome) : Effect.succeed(outcome)

/**
 * SAML log-in, started by this service provider: `start` sends a person whose e-mail belongs to a
 * verified domain with an identity provider there with a fresh request; `complete` takes the identity
 * provider's signed answer and, when every rule holds, signs the person in as every SSO log-in does.
 */
export class SamlLogin extends Context.Service<SamlLogin, {
  /**
   * `next`: a page of this site to return to afterwards; anything but a safe path of this site
   * (safeNextPath) is dropped. `clientAddress`: the browser's, whose starts are counted (SsoThrottle).
   */
  readonly start: (
    email: string | undefined,
    next: string | undefined,
    clientAddress: string
  ) => Effect.Effect<AuthnRequest, SamlNotConfigured | Throttled>
  /** The request's client address is counted (SsoThrottle) before the answer waits for its signature's check. */
  readonly complete: (answer: SamlAnswer, request: SessionRequest) => Effect.Effect<SamlLoggedIn, SamlRejected | SsoRefused | Throttled>
}>()("hedgerow/SamlLogin") {
  static readonly layerNoDeps = Layer.effect(
    SamlLogin,
    Effect.gen(function*() {
      const saml = yield* SamlRepository
      const signature = yield* SamlSignature
      const signIn = yield* SsoSignIn
      const authentication = yield* Authentication
      const transactions = yield* Transactions
      const site = yield* SiteSettings
      const throttle = yield* SsoThrottle
      const context = yield* Effect.context<DomainRepository>()
      const serviceProvider = serviceProviderOf(site)

      const start = Effect.fn("SamlLogin.start")(function*(email: string | undefined, next: string | undefined, clientAddress: string) {
        yield* throttle.start(clientAddress)
        const address = email?.trim() ?? ""
        if (address === "") return yield* new SamlNotConfigured()
        const domain = yield* Effect.provideContext(verifiedDomainOf(address), context)
        if (Option.isNone(domain) || !hasSaml(domain.value) || !isWebUrl(domain.value.saml_acs_url!)) return yield* new SamlNotConfigured()
        const now = yield* Clock.currentTimeMillis
        // An NCName, as SAML IDs must be: a letter or underscore first.
        const id = `_${randomBase62(40)}`
        const browserKey = newBrowserKey()
        yield* transactions.single(saml.issueRequest({
          id,
          domain_id: domain.value.id,
          expires_at: now + REQUEST_LIFETIME_MS,
          browser_hash: secureValueOf(browserKey)
        }))
        return {
          id,
          issue_instant: new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z"),
          destination: domain.value.saml_acs_url!,
          relay_state: relayStateOf(domain.value.id, safeNextPath(next)),
          service_provider: serviceProvider,
          cookie: samlLoginCookie(browserKey, site)
        } satisfies AuthnRequest
      })

      /** The domain the RelayState names, verified and with its identity provider set up. */
      const domainAnswering = (id: DomainId | undefined) =>
        Effect.gen(function*() {
          const domain = id === undefined ? Option.none<DomainRecord>() : yield* saml.verifiedDomain(id)
          if (Option.isNone(domain) || !hasSaml(domain.value)) return yield* new SamlRejected({ detail: INVALID_RELAY_STATE })
          return domain.value
        })

      const complete = Effect.fn("SamlLogin.complete")(function*(answer: SamlAnswer, request: SessionRequest) {
        yield* throttle.answer(request.clientAddress)
        const relayState = readRelayState(answer.relay_state)
        const domain = yield* domainAnswering(relayState.domain)
        const response = yield* signature.read(answer.document, domain.saml_x509_cert!)
        const now = yield* Clock.currentTimeMillis
        const accepted = yield* fromChecked(checkResponse(response, { issuer: domain.saml_entity_id!, serviceProvider, now }))
        const identity = yield* fromChecked(identityOf(response.assertion))
        // Only the identity provider of the e-mail's own domain may vouch for it.
        if (domainPartOf(identity.email) !== domain.domain) {
          return yield* new SamlRejected({
            detail: `The e-mail's domain (${domainPartOf(identity.email)}) does not match the configured domain (${domain.domain}).`
          })
        }
        // The request is used up and the assertion remembered whatever the browser check and the sign-in
        // then say: an answer counts once, even one refused.
        const requestHash = yield* transactions.run(Effect.gen(function*() {
          const taken = yield* saml.consumeRequest(accepted.in_response_to, domain.id)
          if (Option.isNone(taken)) {
            return yield* new SamlRejected({ detail: "The Response answers no pending request of this service provider: it expired, was answered already or was never sent." })
          }
          if (!(yield* saml.rememberAssertion(domain.id, accepted.assertion_id, accepted.remember_until))) {
            return yield* new SamlRejected({ detail: "The assertion was used before: it is accepted once." })
          }
          return taken.value
        }))
        // An answer to a request another browser started is someone else's log-in: taking it would log
        // this browser into their account.
        if (!startedByThisBrowser(requestHash, answer.browser_key, site)) {
          return yield* new SamlRejected({ detail: "This log-in was started in another browser: start it again from this one." })
        }
        // The ACS is a cross-site POST whose proof is the signature, not a CSRF token: the session it
        // may come with is read, as a GET reads it, only to be ended by the new one.
        const current = yield* authentication.session({ ...request, method: "GET" }).pipe(Effect.orElseSucceed(() => Option.none()))
        const replacing = Option.getOrUndefined(Option.flatMapNullishOr(current, (actor) => sessionOf(actor)?.session_id))
        const loggedIn = yield* signIn.signIn({ provider: "saml", ...identity }, replacing)
        return { cookies: [...loggedIn.cookies, clearSamlLoginCookie(site)], next: relayState.next ?? "/" } satisfies SamlLoggedIn
      })

      return SamlLogin.of({ start, complete })
    })
  )
}
