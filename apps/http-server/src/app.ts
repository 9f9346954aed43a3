import { HedgerowApi } from "@hedgerow/api"
import { CoreServices, RateLimitSettings } from "@hedgerow/core"
import { StoreLive, type StoreOptions } from "@hedgerow/store"
import { Config, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { HandlersLive } from "./handlers/groups.ts"
import { AuthorizationLive } from "./middleware/authorization.ts"
import { ErrorEnvelopeLive } from "./middleware/error-envelope.ts"
import { RequestDecodingLive } from "./middleware/request-decoding.ts"

/** The routes of the contract, the OpenAPI document and its rendered docs, over core. */
export const ApiRoutes = Layer.mergeAll(
  HttpApiBuilder.layer(HedgerowApi, { openapiPath: "/api/schema/" }).pipe(
    Layer.provide(HandlersLive),
    Layer.provide(AuthorizationLive),
    Layer.provide(RequestDecodingLive)
  ),
  HttpApiScalar.layer(HedgerowApi, { path: "/api/docs/" }),
  ErrorEnvelopeLive
)

/** HEDGEROW_RATE_LIMIT=true turns on PostHog's per-key limits (D8); they are off by default. */
const RateLimitsFromConfig = Layer.effect(
  RateLimitSettings,
  Effect.gen(function*() {
    const enabled = yield* Config.Boolean("HEDGEROW_RATE_LIMIT").pipe(Config.withDefault(false))
    return { ...RateLimitSettings.defaultValue(), enabled }
  })
)

/** Core services over a store: what the routes need, and what the CLI runs in-process. */
export const ServicesLive = (store: StoreOptions) =>
  CoreServices.pipe(Layer.provide(RateLimitsFromConfig), Layer.provideMerge(StoreLive(store)))

/** PostHog's router accepts paths with and without their trailing slash (D7). */
export const routerConfig = { ignoreTrailingSlash: true } as const

/** The HTTP app on any HttpServer, given core services. */
export const serveApi = HttpRouter.serve(ApiRoutes, { routerConfig, disableLogger: true, disableListenLog: true })
