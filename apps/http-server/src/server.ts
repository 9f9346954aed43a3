// The module alone: the package's index also loads its Redis client, many modules more at start-up.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Bootstrap, type BootstrapOptions, type Bootstrapped, WebhookWorker } from "@hedgerow/core"
import type { StoreOptions } from "@hedgerow/store"
import { Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import * as App from "./app.ts"
import type { LineSink } from "./log/line-writer.ts"
import * as ServerLog from "./log/server-log.ts"
import type { LogSettings } from "./log/settings.ts"
import { createNodeServer } from "./node-server.ts"
import * as SdkLane from "./sdk-lane/lane.ts"
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
}

/**
 * The API (and the web console, given its build) on a Node HTTP server over core and the store, with the
 * webhook worker beside it; port 0
 * picks a free port. The server's timeouts come from the configuration (settings/timeouts.ts) and the
 * console from its directory, both read first so that a bad timeout or a missing build refuses the start
 * before the store is opened.
 */
export const layer = (options: ServerOptions) =>
  Layer.unwrap(Effect.gen(function*() {
    const timeouts = yield* timeoutsFromConfig
    const site = options.webConsoleDir === undefined ? undefined : yield* loadSite(options.webConsoleDir)
    // Core and the store first, once; then the server over them, and both offered to the caller. The
    // services go to the routes alone (see App.layer), never into the server's own context.
    return Layer.flatMap(App.servicesLayer(options.store), (context) => {
      const services = Layer.succeedContext(context)
      // One log for the routes and the SDK lane: the same layer, built once.
      const log = options.log === undefined ? Layer.empty : ServerLog.layer(options.log, options.log.sink)
      const app = site === undefined
        ? App.layer(services)
        : App.layerWithConsole(services).pipe(Layer.provide(Layer.succeed(WebConsole.WebConsole, site)))
      const server = Layer.unwrap(Effect.map(SdkLane.make, (lane) =>
        NodeHttpServer.layer(() => createNodeServer(timeouts, lane), { port: options.port, host: options.host })
      )).pipe(Layer.provide(Layer.mergeAll(services, log, serverSettingsFromConfig(""))))
      // The webhook worker delivers while the server runs, and stops with it.
      const webhooks = WebhookWorker.layerNoDeps.pipe(Layer.provide(Layer.merge(services, log)))
      return Layer.mergeAll(app.pipe(Layer.provide(log), Layer.provideMerge(server)), services, webhooks)
    })
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
