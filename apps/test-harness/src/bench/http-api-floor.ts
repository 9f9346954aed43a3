import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NetAddress } from "effect/net"
import { createServer } from "node:http"
import type { RequestSpec } from "./scenario.ts"

/**
 * Effect's HttpApi with nothing of Hedgerow's: one endpoint at the scenario's method and path, whose query
 * is decoded, whose body is read, and which answers with Hedgerow's status and bytes. What any server on
 * HttpApi can reach for the request, beside the bare node:http baseline in the same run. Scoped; yields
 * its URL.
 */
export const httpApiFloorServer = (spec: RequestSpec, body: Uint8Array, status: number) => {
  const path = new URL(spec.path, "http://localhost").pathname as `/${string}`
  const endpoint = HttpApiEndpoint.make(spec.method)("answer", path, {
    query: Schema.Record(Schema.String, Schema.String),
    success: Schema.Unknown
  })
  const api = HttpApi.make("floor").add(HttpApiGroup.make("floor").add(endpoint))
  // A 304 has neither body nor length.
  const answer = () =>
    status === 304
      ? HttpServerResponse.empty({ status })
      : HttpServerResponse.uint8Array(body, { status, contentType: "application/json" })
  const handlers = HttpApiBuilder.group(api, "floor", (handlers) =>
    handlers.handleRaw("answer", ({ request }) =>
      spec.body === undefined ? Effect.sync(answer) : Effect.map(Effect.orDie(request.arrayBuffer), answer)))
  const server = HttpRouter.serve(HttpApiBuilder.layer(api).pipe(Layer.provide(handlers)), {
    disableLogger: true,
    disableListenLog: true
  }).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))
  return Effect.map(Layer.build(server), (context) =>
    NetAddress.formatUrlUnsafe(Context.get(context, HttpServer.HttpServer).address).replace(/\/$/, ""))
}
