import { HedgerowServer } from "@hedgerow/http-server"
import { Hedgerow } from "@hedgerow/store"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { type LocalNetwork, startNetwork } from "../network/index.ts"
import { createWorld } from "../world.ts"
import { coreTarget } from "./core.ts"
import { httpTarget } from "./http.ts"
import { closingAfter, type Prepared, type TargetStore } from "./prepared.ts"

/**
 * Starts a target's own DNS and mail servers, builds the target against them, and closes them after the
 * target (or at once when building fails).
 */
export const onLocalNetwork = async (build: (local: LocalNetwork) => Promise<Omit<Prepared, "network">>): Promise<Prepared> => {
  const local = await startNetwork()
  return closingAfter(local.close, async () => ({ ...(await build(local)), network: local.network }))
}

/**
 * The harness's network settings over the rest of the environment, for layers built in this process: they
 * read configuration once, when built, and process.env stays untouched.
 */
const configuredFor = (local: LocalNetwork) =>
  ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { ...local.env } }), { asPrimary: true })

/** Core services on the given store (PGlite in memory by default), called directly. */
export const prepareCore = (store: TargetStore = {}) =>
  onLocalNetwork(async (local) => {
    const runtime = ManagedRuntime.make(Hedgerow.layer(store).pipe(Layer.provide(configuredFor(local))))
    return closingAfter(() => runtime.dispose(), async () => {
      const world = await runtime.runPromise(createWorld)
      return { target: coreTarget(runtime), world, close: async () => {} }
    })
  })

/** The real HTTP server on a random loopback port, in this process, on the given store (PGlite in memory by default). */
export const prepareServer = (store: TargetStore = {}) =>
  onLocalNetwork(async (local) => {
    const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store }).pipe(Layer.provide(configuredFor(local))))
    return closingAfter(() => runtime.dispose(), async () => {
      const { world, url } = await runtime.runPromise(Effect.all({ world: createWorld, url: HedgerowServer.baseUrl }))
      return { target: httpTarget("server", url), world, close: async () => {} }
    })
  })
