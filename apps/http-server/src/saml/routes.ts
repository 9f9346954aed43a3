import {
  ACS_PATH,
  SAML_LOGIN_COOKIE,
  SamlLogin,
  type SamlLoggedIn,
  SamlNotConfigured,
  SamlRejected,
  serviceProviderOf,
  SiteSettings,
  type SsoRefused,
  SSO_THROTTLED_CODE,
  type Throttled
} from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { cookiesOf } from "../answers/cookies.ts"
import { readBoundedBody } from "../request/bounded-body.ts"
import { sessionRequestOf } from "../request/session.ts"
import { lastValue } from "../sdk-lane/requests.ts"
import { ServerSettings, serverSettingsFromConfig } from "../settings/server-settings.ts"
import { SiteFromConfig } from "../settings/site.ts"
import { redirectUrl } from "./authn-request.ts"
import { MAX_DOCUMENT_BYTES } from "./document.ts"
import { serviceProviderMetadata } from "./metadata.ts"
import * as SignedResponse from "./signed-response.ts"

/** PostHog's paths of the log-in's start and of the service provider's metadata (the ACS's is core's). */
const START_PATH = "/login/saml/"
const METADATA_PATH = "/api/saml/metadata/"

/**
 * The ACS's form: the Response in base64, at most 4/3 of the largest document read, percent-encoded
 * (up to three bytes a character), with room for RelayState.
 */
const MAX_ACS_BODY_BYTES = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) * 3 + 4096

/** Base64 as identity providers send it: line breaks allowed, nothing else but the alphabet and its padding. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The path of a page of the console, under the site's own path when it has one. */
const sitePath = (siteUrl: string, path: string) => `${new URL(siteUrl).pathname.replace(/\/+$/, "")}${path}`

/** A query parameter of the request: the last of its values, as Django reads a repeated one. */
const queryValue = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined =>
  lastValue(new URL(request.url, "http://request.invalid").searchParams, name)

const noStore = { "cache-control": "no-store" }

/** The longest refusal detail a redirect carries. */
const MAX_DETAIL = 300

/** The SAML log-in's browser routes and the service provider's metadata, beside the API's. */
export const routes = Layer.effectDiscard(Effect.gen(function*() {
  const router = yield* HttpRouter.HttpRouter
  const saml = yield* SamlLogin
  const site = yield* SiteSettings
  const settings = yield* ServerSettings
  const serviceProvider = serviceProviderOf(site)

  /**
   * Back to the console's log-in page with PostHog's error code (and, for a failed exchange, its detail,
   * cut short: it may quote what the message said, and a Location header must stay small).
   */
  const toLoginPage = (code: string, detail?: string) => {
    const query = new URLSearchParams({ error_code: code, ...(detail === undefined ? {} : { error_detail: detail.slice(0, MAX_DETAIL) }) })
    return HttpServerResponse.redirect(`${sitePath(site.url, "/login")}?${query}`, { status: 302, headers: noStore })
  }
  const loggedIn = (outcome: SamlLoggedIn) =>
    HttpServerResponse.redirect(sitePath(site.url, outcome.next), { status: 302, headers: noStore, cookies: cookiesOf(outcome.cookies) })
  const refused = (error: SamlRejected | SsoRefused) =>
    Effect.succeed(error._tag === "SamlRejected" ? toLoginPage(SamlRejected.code, error.detail) : toLoginPage(error.code))
  /** A client address over its budget (SsoThrottle), with PostHog's words for when to come back. */
  const throttled = (error: Throttled) => Effect.succeed(toLoginPage(SSO_THROTTLED_CODE, error.detail))

  yield* router.add("GET", START_PATH, (request) =>
    saml.start(queryValue(request, "email"), queryValue(request, "next"), sessionRequestOf(request, settings).clientAddress).pipe(
      Effect.map((authnRequest) =>
        HttpServerResponse.redirect(redirectUrl(authnRequest), { status: 302, headers: noStore, cookies: cookiesOf([authnRequest.cookie]) })
      ),
      Effect.catchTags({ SamlNotConfigured: () => Effect.succeed(toLoginPage(SamlNotConfigured.code)), Throttled: throttled })
    ))

  /** The form the browser posted, or the refusal of one that is not a SAML answer this server can read. */
  const answerOf = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
      if (type !== "application/x-www-form-urlencoded") {
        return yield* new SamlRejected({ detail: "The SAML answer must be posted as a form (HTTP-POST binding)." })
      }
      const body = yield* readBoundedBody(request, MAX_ACS_BODY_BYTES).pipe(
        Effect.mapError(() => new SamlRejected({ detail: "The SAML message is too large." }))
      )
      const form = new URLSearchParams(new TextDecoder().decode(body))
      const encoded = (lastValue(form, "SAMLResponse") ?? "").replace(/\s+/g, "")
      if (encoded === "") return yield* new SamlRejected({ detail: "Missing needed parameter SAMLResponse" })
      if (!BASE64.test(encoded)) return yield* new SamlRejected({ detail: "The SAMLResponse is not base64." })
      if ((encoded.length * 3) / 4 > MAX_DOCUMENT_BYTES + 2) return yield* new SamlRejected({ detail: "The SAML message is too large." })
      return {
        document: Buffer.from(encoded, "base64").toString("utf8"),
        relay_state: lastValue(form, "RelayState"),
        browser_key: request.cookies[SAML_LOGIN_COOKIE]
      }
    })

  yield* router.add("POST", ACS_PATH, (request) =>
    answerOf(request).pipe(
      Effect.flatMap((answer) => saml.complete(answer, sessionRequestOf(request, settings))),
      Effect.map(loggedIn),
      Effect.catchTags({ SamlRejected: refused, SsoRefused: refused, Throttled: throttled })
    ))

  const metadata = serviceProviderMetadata(serviceProvider)
  yield* router.add("GET", METADATA_PATH, () =>
    Effect.succeed(HttpServerResponse.text(metadata, { contentType: "text/xml; charset=utf-8" })))
})).pipe(
  Layer.provide(SamlLogin.layerNoDeps.pipe(Layer.provide(SignedResponse.layer))),
  Layer.provide(Layer.merge(SiteFromConfig, serverSettingsFromConfig("")))
)
