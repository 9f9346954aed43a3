import { OAUTH_LOGIN_COOKIE, OAuthLogin, type BrowserRedirect, type OAuthBrowserRequest } from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { responseOf } from "../answers/response.ts"
import { sessionRequestOf } from "../request/session.ts"
import { lastValue } from "../sdk-lane/requests.ts"
import { ServerSettings, serverSettingsFromConfig } from "../settings/server-settings.ts"

/**
 * A redirect no cache keeps (each carries a new state or a session's cookies) and whose URL, which may
 * hold the provider's code, no page it leads to is told of.
 */
const redirect = (to: BrowserRedirect) =>
  responseOf({
    status: 302,
    headers: { location: to.location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    json: undefined,
    cookies: to.cookies
  })

/** The request's query parameters; one the browser sent malformed stays as sent. */
const queryOf = (request: HttpServerRequest.HttpServerRequest) => {
  const at = request.url.indexOf("?")
  return new URLSearchParams(at === -1 ? "" : request.url.slice(at + 1))
}

/**
 * PostHog's browser routes for OAuth log-in, beside the API's and outside its contract: `GET
 * /login/<provider>/` sends the browser to the provider, `GET /complete/<provider>/` is where the provider
 * sends it back. Both answer with a redirect, never an error page.
 */
export const routes = Layer.effectDiscard(Effect.gen(function*() {
  const oauth = yield* OAuthLogin
  const settings = yield* ServerSettings
  const router = yield* HttpRouter.HttpRouter
  const browser = (request: HttpServerRequest.HttpServerRequest): OAuthBrowserRequest => ({
    session: sessionRequestOf(request, settings),
    browserKey: request.cookies[OAUTH_LOGIN_COOKIE]
  })
  const provider = Effect.map(HttpRouter.params, (params) => params["provider"] ?? "")
  yield* router.add("GET", "/login/:provider", (request) =>
    Effect.flatMap(provider, (name) => oauth.begin(name, browser(request), lastValue(queryOf(request), "next"))).pipe(Effect.map(redirect)))
  yield* router.add("GET", "/complete/:provider", (request) =>
    Effect.flatMap(provider, (name) => {
      const query = queryOf(request)
      return oauth.complete(name, {
        state: lastValue(query, "state"),
        code: lastValue(query, "code"),
        error: lastValue(query, "error")
      }, browser(request))
    }).pipe(Effect.map(redirect)))
})).pipe(Layer.provide(serverSettingsFromConfig("")))
