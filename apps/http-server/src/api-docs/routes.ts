import { HedgerowApi } from "@hedgerow/api"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiScalar, OpenApi } from "effect/http-api"
import { madeOnce } from "./made-once.ts"

export const SCHEMA_PATH = "/api/schema/"
export const DOCS_PATH = "/api/docs/"

/** The OpenAPI document of the whole contract, as JSON. */
const schema = madeOnce(Effect.sync(() => HttpServerResponse.jsonUnsafe(OpenApi.fromApi(HedgerowApi))))

/**
 * The docs page: Scalar's script inline, over the OpenAPI document. `HttpApiScalar.layer` renders it on a
 * router of its own, here asked once for the page. That layer alone would load the script, megabytes of
 * it, when the server starts; made at the first visit, it is loaded only by servers whose docs are read.
 */
const docs = madeOnce(Effect.scoped(Effect.flatMap(
  HttpRouter.toHttpEffect(HttpApiScalar.layer(HedgerowApi, { path: DOCS_PATH })),
  (render) =>
    Effect.provideService(
      render,
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(new Request(`http://localhost${DOCS_PATH}`))
    )
)))

/** `/api/schema/` and `/api/docs/`, open to anyone, each made once per process. */
export const routes = Layer.mergeAll(HttpRouter.add("GET", SCHEMA_PATH, schema), HttpRouter.add("GET", DOCS_PATH, docs))
