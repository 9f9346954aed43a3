import { HedgerowApi } from "@hedgerow/api"
import { Authentication } from "@hedgerow/core"
import { Hedgerow, type StoreOptions } from "@hedgerow/store"
import { Effect, Layer, Option } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import * as ApiDocs from "./api-docs/routes.ts"
import * as AuthorizationMiddleware from "./http-api/authorization.ts"
import * as Handlers from "./http-api/handlers.ts"
import * as RequestDecodingMiddleware from "./http-api/request-decoding.ts"
import { ServerLog } from "./log/server-log.ts"
import * as Cors from "./middleware/cors.ts"
import * as ErrorEnvelope from "./middleware/error-envelope.ts"
import * as RequestLog from "./middleware/request-log.ts"
import * as OAuthRoutes from "./oauth/routes.ts"
import { Observatory } from "./observe/observatory.ts"
import * as Saml from "./saml/routes.ts"
import { RateLimitsFromConfig } from "./settings/rate-limits.ts"
import { ServerSettings, serverSettingsFromConfig } from "./settings/server-settings.ts"
import { SiteFromConfig } from "./settings/site.ts"
import { WebhooksFromConfig } from "./settings/webhooks.ts"
import * as WebConsole from "./web-console/routes.ts"

/**
 * Around every route, CORS outside the envelope: the envelope answers every failure, so CORS adds its
 * headers to errors too. The request log and metrics record each answer where it is made (the envelope's,
 * a preflight's), so they see the status the client gets. One middleware, so that their order does not
 * hang on the order in which layers are built.
 */
const edgeMiddleware = HttpRouter.middleware(
  Effect.gen(function*() {
    const observatory = yield* Effect.serviceOption(Observatory)
    const record = RequestLog.recorderOf(yield* ServerLog, Option.getOrUndefined(observatory)?.requests)
    const envelope = ErrorEnvelope.around(yield* ServerSettings, yield* Effect.serviceOption(Authentication), record)
    return (httpEffect: Parameters<typeof envelope>[0]) => Cors.around(envelope(httpEffect), record)
  }),
  { global: true }
)

/**
 * PostHog's router accepts paths with and without their trailing slash, and clients use both. A path
 * segment of any length reaches its endpoint, which answers an id it cannot know with 404: under the
 * router's default, which refuses segments over 100 characters, such a path would be answered 405 as if
 * the method were wrong.
 */
export const routerConfig = { ignoreTrailingSlash: true, maxParamLength: Number.MAX_SAFE_INTEGER } as const

/**
 * The routes of the contract, the OpenAPI document and its rendered docs, over core, for a server that
 * strips `basePath` from each request before routing it ("" when the API is the whole server).
 */
export const routesAt = (basePath: string) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(HedgerowApi).pipe(
      Layer.provide(Handlers.layerNoDeps),
      Layer.provide(AuthorizationMiddleware.layerNoDeps),
      Layer.provide(RequestDecodingMiddleware.layer)
    ),
    ApiDocs.routes,
    edgeMiddleware
  ).pipe(
    // Read once, for the handlers, the key middleware and the envelope's answers alike.
    Layer.provide(serverSettingsFromConfig(basePath))
  )

/** Core services over a store, with the server's configuration. */
export const servicesLayer = (store: StoreOptions) =>
  Hedgerow.layer(store).pipe(Layer.provide(RateLimitsFromConfig), Layer.provide(SiteFromConfig), Layer.provideMerge(WebhooksFromConfig))

/**
 * Serves `routes` with `services` given to the routes alone: each request's context then holds the
 * server's few services, and the handlers set core's services for their bindings (see
 * http-api/serve-binding.ts), so no request copies the whole set.
 */
const serving = <A, E, R, S, E2, R2>(routes: Layer.Layer<A, E, R>, services: Layer.Layer<S, E2, R2>) =>
  HttpRouter.serve(routes.pipe(Layer.provide(services)), { routerConfig, disableLogger: true, disableListenLog: true })

/**
 * The HTTP app on any HttpServer, over `services` (share the layer with whatever else uses them: it is
 * built once), with the browser's SAML and OAuth log-in routes beside the API's.
 */
export const layer = <S, E, R>(services: Layer.Layer<S, E, R>) =>
  serving(Layer.mergeAll(routesAt(""), Saml.routes, OAuthRoutes.routes), services)

/** The same with the web console's routes beside the API's; they need the console (WebConsole). */
export const layerWithConsole = <S, E, R>(services: Layer.Layer<S, E, R>) =>
  serving(Layer.mergeAll(routesAt(""), Saml.routes, OAuthRoutes.routes, WebConsole.routes), services)
