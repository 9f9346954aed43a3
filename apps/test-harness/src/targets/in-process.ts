import { baseUrl, HedgerowServer } from "@hedgerow/http-server"
import { HedgerowServices } from "@hedgerow/store"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { type LocalNetwork, type Network, startNetwork } from "../network/index.ts"
import { createWorld, type World } from "../world.ts"
import { coreTarget } from "./core.ts"
import { httpTarget } from "./http.ts"
import type { Target } from "./target.ts"

export interface Prepared {
  readonly target: Target
  readonly world: World
  /** The DNS and mail servers the target is configured with. */
  readonly network: Network
  readonly close: () => Promise<void>
}

/**
 * Starts a target's own DNS and mail servers, builds the target against them, and closes them after the
 * target (or at once when building fails).
 */
export const onLocalNetwork = async (build: (local: LocalNetwork) => Promise<Omit<Prepared, "network">>): Promise<Prepared> => {
  const local = await startNetwork()
  try {
    const prepared = await build(local)
    const close = async () => {
      try {
        await prepared.close()
      } finally {
        await local.close()
      }
    }
    return { ...prepared, network: local.network, close }
  } catch (error) {
    await local.close()
    throw error
  }
}

/**
 * The harness's network settings over the rest of the environment, for layers built in this process: they
 * read configuration once, when built, and process.env stays untouched.
 */
const configuredFor = (local: LocalNetwork) =>
  ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { ...local.env } }), { asPrimary: true })

/** Core services on an in-memory store, called directly. */
export const prepareCore = () =>
  onLocalNetwork(async (local) => {
    const runtime = ManagedRuntime.make(HedgerowServices({}).pipe(Layer.provide(configuredFor(local))))
    const world = await runtime.runPromise(createWorld)
    return { target: coreTarget(runtime), world, close: () => runtime.dispose() }
  })

/** The real HTTP server on a random loopback port, in this process, on an in-memory store. */
export const prepareServer = () =>
  onLocalNetwork(async (local) => {
    const runtime = ManagedRuntime.make(HedgerowServer({ port: 0, host: "127.0.0.1", store: {} }).pipe(Layer.provide(configuredFor(local))))
    const { world, url } = await runtime.runPromise(Effect.all({ world: createWorld, url: baseUrl }))
    return { target: httpTarget("server", url), world, close: () => runtime.dispose() }
  })
