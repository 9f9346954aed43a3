import * as Effect from "effect/Effect"

/**
 * Core, the store, the API contract and the server, loaded when a command runs rather than when the
 * command tree is defined: `--help` and `--version` load none of them, an API command no store, and
 * only `serve` the server.
 */

export type Core = typeof import("@hedgerow/core")

export const loadCore: Effect.Effect<Core> = Effect.promise(() => import("@hedgerow/core"))
export const loadStore = Effect.promise(() => import("@hedgerow/store"))
export const loadApi = Effect.promise(() => import("@hedgerow/api"))
export const loadServer = Effect.promise(() => import("@hedgerow/http-server"))
