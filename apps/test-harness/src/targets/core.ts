import { type ApiFailure, Authentication, bodyOf, envelopeOf } from "@hedgerow/core"
import { operations } from "@hedgerow/http-server"
import { Effect, type ManagedRuntime, Schema } from "effect"
import { type Call, endpointOf, type EndpointRef, type Reply, renderPath, type Target } from "./target.ts"

const isApiFailure = (error: unknown): error is ApiFailure =>
  typeof error === "object" && error !== null && "_tag" in error && "detail" in error

/**
 * Core in-process, as an embedding Node app would use it: no HTTP at all. The call goes through core's
 * Authentication and the same endpoint→core bindings the server uses; the answer is encoded with the
 * contract's success schema, and failures become core's envelope. Statuses therefore come from core's
 * error model alone.
 */
export const coreTarget = (runtime: ManagedRuntime.ManagedRuntime<any, any>): Target => ({
  name: "core",
  call: (ref: EndpointRef, call: Call): Promise<Reply> => {
    const endpoint = endpointOf(ref)
    const operation = (operations as Record<string, Record<string, (input: any) => Effect.Effect<unknown, ApiFailure, any>>>)[
      ref.group
    ]![ref.endpoint]!
    const params = Object.fromEntries(Object.entries(call.params ?? {}).map(([k, v]) => [k, String(v)]))
    const query = Object.fromEntries(Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)]))
    const isWrite = endpoint.method !== "GET" && endpoint.method !== "DELETE"
    const program = Effect.gen(function*() {
      const actor = yield* Authentication.use((auth) => auth.authenticate(call.key))
      const value = yield* operation({
        actor,
        params,
        query,
        // What a JSON body can carry, exactly: a round trip drops undefined and functions.
        body: bodyOf(isWrite ? (call.body === undefined ? {} : JSON.parse(JSON.stringify(call.body))) : undefined),
        url: `http://core.hedgerow.invalid${renderPath(endpoint.path, call)}`
      })
      const body = yield* Schema.encodeUnknownEffect(endpoint.success as Schema.Top)(value).pipe(Effect.orDie)
      return { status: endpoint.status, body: JSON.parse(JSON.stringify(body ?? null)) } as Reply
    }).pipe(
      Effect.catch((error) =>
        isApiFailure(error) ? Effect.succeed(envelopeOf(error) as Reply) : Effect.die(error))
    )
    return runtime.runPromise(program)
  }
})
