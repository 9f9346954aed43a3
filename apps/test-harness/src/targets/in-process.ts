import { baseUrl, HedgerowServer } from "@hedgerow/http-server"
import { HedgerowServices } from "@hedgerow/store"
import { Effect, ManagedRuntime } from "effect"
import { createWorld, type World } from "../world.ts"
import { coreTarget } from "./core.ts"
import { httpTarget } from "./http.ts"
import type { Target } from "./target.ts"

export interface Prepared {
  readonly target: Target
  readonly world: World
  readonly close: () => Promise<void>
}

/** Core services on an in-memory store, called directly. */
export const prepareCore = async (): Promise<Prepared> => {
  const runtime = ManagedRuntime.make(HedgerowServices({}))
  const world = await runtime.runPromise(createWorld)
  return { target: coreTarget(runtime), world, close: () => runtime.dispose() }
}

/** The real HTTP server on a random loopback port, in this process, on an in-memory store. */
export const prepareServer = async (): Promise<Prepared> => {
  const runtime = ManagedRuntime.make(HedgerowServer({ port: 0, host: "127.0.0.1", store: {} }))
  const { world, url } = await runtime.runPromise(Effect.all({ world: createWorld, url: baseUrl }))
  return { target: httpTarget("server", url), world, close: () => runtime.dispose() }
}
