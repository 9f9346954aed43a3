import { HedgerowApi } from "@hedgerow/api"
import { Context, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { BoundGroupName } from "../endpoints/access.ts"
import type { Services } from "../endpoints/binding.ts"
import { boundGroups, bindingsOf } from "../endpoints/registry.ts"
import { ServerSettings } from "../settings/server-settings.ts"
import { type RawCall, rawHandlerOf, type Serving } from "./serve-binding.ts"
import { SystemHandlers } from "./system.ts"

/** The builder's own face, seen one endpoint at a time by its types; a loop can only use it by name. */
interface UntypedBuilder {
  readonly handleRaw: (name: string, handler: (raw: RawCall) => Effect.Effect<unknown, unknown, unknown>) => unknown
}

/** A builder with every endpoint handled. */
type Complete<H> = H extends HttpApiBuilder.Handlers<infer R, infer Endpoints, infer _Handled>
  ? HttpApiBuilder.Handlers<R, Endpoints, keyof Endpoints>
  : never

/**
 * HttpApi merges the context a group was built in into every request's context, copying both maps each
 * time. Built in a context of the middleware the contract gives its endpoints alone, a group keeps that
 * copy small; core's services reach its bindings through `serve-binding.ts` instead.
 */
const withMiddlewareOnly = <A, E, R>(group: BoundGroupName, layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> => {
  const middleware = new Set(Object.values(HedgerowApi.groups[group].endpoints).flatMap((endpoint) => [...endpoint.middlewares]))
  return Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(Layer.buildWithMemoMap(layer, memoMap, scope), (context: Context.Context<R>) =>
      Context.pick(...middleware)(context) as Context.Context<R>))
}

/**
 * The handlers of one group: each of its bindings under its endpoint's name. `bindGroup` has checked
 * each binding against its endpoint; the builder's types follow one `handleRaw` call at a time, so the
 * loop registers through its untyped face and hands the builder back as complete.
 */
const serveGroup = <G extends BoundGroupName>(group: G) =>
  Layer.unwrap(Effect.gen(function*() {
    const serving: Serving = { settings: yield* ServerSettings, services: yield* Effect.context<Services>() }
    return withMiddlewareOnly(group, HttpApiBuilder.group(HedgerowApi, group, (handlers) => {
      const builder = handlers as unknown as UntypedBuilder
      for (const [name, binding] of bindingsOf(group)) builder.handleRaw(name, rawHandlerOf(group, name, binding, serving))
      return handlers as unknown as Complete<typeof handlers>
    }))
  }))

/** One handler layer per group of the contract, plus the unauthenticated health check. */
export const layerNoDeps = Layer.mergeAll(SystemHandlers, ...boundGroups.map(serveGroup))
