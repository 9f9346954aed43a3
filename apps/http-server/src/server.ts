// The module alone: the package's index also loads its Redis client, many modules more at start-up.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Bootstrap, type BootstrapOptions, type Bootstrapped, WebhookWorker } from "@hedgerow/core"
import type { StoreOptions } from "@hedgerow/store"
import { ChangeFeedStatus } from "@hedgerow/store"
import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { Statement } from "effect/sql"
import * as App from "./app.ts"
import type { LineSink } from "./log/line-writer.ts"
import * as ServerLog from "./log/server-log.ts"
import type { LogSettings } from "./log/settings.ts"
import { createNodeServer } from "./node-server.ts"
import * as MetricsListener from "./observe/metrics-listener.ts"
import { Observatory } from "./observe/observatory.ts"
import { readyProbe } from "./observe/ready-probe.ts"
import * as SdkLane from "./sdk-lane/lane.ts"
import type { MetricsListenerSettings } from "./settings/metrics-listener.ts"
import { OAuthFromConfig } from "./settings/oauth.ts"
import { serverSettingsFromConfig } from "./settings/server-settings.ts"
import { timeoutsFromConfig } from "./settings/timeouts.ts"
import * as WebConsole from "./web-console/routes.ts"
import { loadSite } from "./web-console/site.ts"

export interface ServerOptions {
  readonly port: number
  readonly host: string
  readonly store: StoreOptions
  /**
   * The request log, and Effect's log calls in the same format, on stdout or on `sink`. Absent, no request
   * is logged, since a process embedding the server owns its stdout; `hedgerow serve` reads
   * HEDGEROW_LOG_LEVEL and HEDGEROW_LOG_FORMAT.
   */
  readonly log?: LogSettings & { readonly sink?: LineSink }
  /**
   * The built web console (apps/web's dist) to serve at `/` beside the API, as `hedgerow serve` does;
   * absent, the server is the API alone. A directory without a build refuses the start (ConsoleNotBuilt).
   */
  readonly webConsoleDir?: string
  /**
   * Where to serve `/metrics` (and `/_ready` again) on a listener of their own; absent, no metrics are
   * served. `hedgerow serve` reads HEDGEROW_METRICS_PORT and HEDGEROW_METRICS_HOST.
   */
  readonly metrics?: MetricsListenerSettings
}

/**
 * The API (and the web console, given its build) on a Node HTTP server over core and the store, with the
 * webhook worker beside it; port 0 picks a free port. The server's timeouts come from the configuration (settings/timeouts.ts) and the
 * console from its directory, both read first so that a bad timeout or a missing build refuses the start
 * before the store is opened.
 */
export const layer = (options: ServerOptions) =>
  Layer.unwrap(Effect.gen(function*() {
    const timeouts = yield* timeoutsFromConfig
    const site = options.webConsoleDir === undefined ? undefined : yield* loadSite(options.webConsoleDir)
    // Made before the store opens, so that the metrics listener, up first and down last, sees every phase.
    const observatory = Observatory.make(options.metrics !== undefined)
    const observed = Layer.succeed(Observatory, observatory)
    const metrics = options.metrics === undefined ? Layer.empty : MetricsListener.layer(observatory, options.metrics)
    // Core and the store first, once; then the server over them, and both offered to the caller. The
    // services go to the routes alone (see App.layer), never into the server's own context.
    // Statements are timed in every fiber the services run: the requests' and their own background ones.
    const timed = observatory.statements === undefined
      ? Layer.empty
      : Layer.succeed(Statement.CurrentTransformer, observatory.statements.transformer)
    // The OAuth providers are read before the store opens too, and kept beside the services for the
    // requests that read them; only a server serves their log-in routes.
    const core = App.servicesLayer(options.store).pipe(Layer.provideMerge(OAuthFromConfig), Layer.provideMerge(timed))
    const served = Layer.flatMap(core, (context) => {
      const services = Layer.succeedContext(context)
      // One log for the routes and the SDK lane: the same layer, built once.
      const log = options.log === undefined ? Layer.empty : ServerLog.layer(options.log, options.log.sink)
      const app = site === undefined
        ? App.layer(services)
        : App.layerWithConsole(services).pipe(Layer.provide(Layer.succeed(WebConsole.WebConsole, site)))
      const probe = readyProbe(observatory.readiness)
      const server = Layer.unwrap(Effect.map(SdkLane.make, (lane) =>
        NodeHttpServer.layer(() => createNodeServer(timeouts, (request, response) => probe(request, response) || lane(request, response)), {
          port: options.port,
          host: options.host
        })
      )).pipe(Layer.provide(Layer.mergeAll(services, log, observed, serverSettingsFromConfig(""))))
      // The webhook worker delivers while the server runs, and stops with it.
      const webhooks = WebhookWorker.layerNoDeps.pipe(Layer.provide(Layer.merge(services, log)))
      const running = Layer.mergeAll(app.pipe(Layer.provide(Layer.merge(log, observed)), Layer.provideMerge(server)), services, webhooks)
      // Built once the server listens, so released before it closes: a stop is draining from its first moment.
      return Layer.flatMap(running, (built) =>
        Layer.merge(Layer.succeedContext(built), Layer.effectDiscard(Effect.gen(function*() {
          observatory.scrapeServices.current = context
          observatory.readiness.serving(Context.get(context, ChangeFeedStatus).listening)
          yield* Effect.addFinalizer(() => Effect.sync(() => observatory.readiness.draining()))
        }))))
    })
    return served.pipe(Layer.provideMerge(Layer.merge(metrics, observed)))
  }))

/** `http://host:port` of the running server. */
export const baseUrl = Effect.map(Effect.service(HttpServer.HttpServer), (server) =>
  NetAddress.formatUrlUnsafe(server.address).replace(/\/$/, ""))

/** On an empty store: bootstrap, so that a first `npm start` (or an app's first start) is immediately usable. */
export const bootstrapIfEmpty = (options: BootstrapOptions = {}) => Effect.gen(function*() {
  const bootstrap = yield* Bootstrap
  if (yield* bootstrap.isBootstrapped) return Option.none<Bootstrapped>()
  // Another process sharing the database may have bootstrapped it since the check.
  return yield* bootstrap.run(options).pipe(
    Effect.map(Option.some),
    Effect.catchTag("AlreadyBootstrapped", () => Effect.succeed(Option.none<Bootstrapped>()))
  )
})
