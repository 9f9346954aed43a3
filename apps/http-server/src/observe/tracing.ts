import { Config, Data, Effect, Layer, Option } from "effect"
import { FetchHttpClient, HttpMiddleware } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { knownPathOf } from "../middleware/known-paths.ts"

/** An OpenTelemetry variable the operator got wrong: the server refuses to start rather than trace elsewhere. */
export class TracingConfigError extends Data.TaggedError("TracingConfigError")<{ readonly message: string }> {}

/** The service name spans carry when OTEL_SERVICE_NAME is unset. */
export const DEFAULT_SERVICE_NAME = "hedgerow"

const optional = (name: string) =>
  Effect.map(Config.option(Config.String(name)), (value) => Option.filter(Option.map(value, (text) => text.trim()), (text) => text !== ""))

/** `key=value,key2=value2`, values percent-encoded, as the OTLP exporter specification writes headers. */
const headersOf = (name: string, text: string): Record<string, string> | TracingConfigError => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue
    const at = pair.indexOf("=")
    if (at <= 0) return new TracingConfigError({ message: `${name} must be key=value pairs separated by commas` })
    try {
      headers[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return new TracingConfigError({ message: `${name} holds a value that is not percent-encoded text` })
    }
  }
  return headers
}

/** Where spans go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `/v1/traces` below `OTEL_EXPORTER_OTLP_ENDPOINT`. */
const endpointOf = Effect.gen(function*() {
  const traces = yield* optional("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
  if (Option.isSome(traces)) return Option.some({ name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", url: traces.value })
  return Option.map(yield* optional("OTEL_EXPORTER_OTLP_ENDPOINT"), (base) => ({
    name: "OTEL_EXPORTER_OTLP_ENDPOINT",
    url: `${base.replace(/\/+$/, "")}/v1/traces`
  }))
})

/**
 * A request's span is named by its method and its route's template (`POST /flags`), matched on the
 * path alone; a path no route serves is named by its method.
 */
export const spanNameOf = (request: { readonly method: string; readonly url: string }): string => {
  const template = knownPathOf(request.url)?.template
  return template === undefined ? request.method : `${request.method} ${template}`
}

/**
 * OpenTelemetry traces over OTLP/HTTP, as the standard variables say: an endpoint
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`) turns them on;
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turns them off again; `OTEL_SERVICE_NAME`,
 * the headers (`OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS`) and the protocol
 * (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf`, the default,
 * or `http/json`) are honoured. Without an endpoint the layer is empty: no tracer, no exporter.
 */
export const tracingFromConfig = Effect.gen(function*() {
  const disabled = yield* optional("OTEL_SDK_DISABLED")
  const exporter = yield* optional("OTEL_TRACES_EXPORTER")
  const endpoint = yield* endpointOf
  if (Option.isNone(endpoint)) return Layer.empty
  if (Option.getOrUndefined(disabled)?.toLowerCase() === "true") return Layer.empty
  if (Option.isSome(exporter) && exporter.value.toLowerCase() === "none") return Layer.empty
  if (Option.isSome(exporter) && exporter.value.toLowerCase() !== "otlp") {
    return yield* new TracingConfigError({ message: `OTEL_TRACES_EXPORTER must be otlp or none, not "${exporter.value}"` })
  }
  try {
    const url = new URL(endpoint.value.url)
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http")
  } catch {
    return yield* new TracingConfigError({ message: `${endpoint.value.name} must be an http(s) URL, not "${endpoint.value.url}"` })
  }
  const protocolName = Option.isSome(yield* optional("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")) ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL"
  const protocol = Option.getOrElse(yield* optional(protocolName), () => "http/protobuf")
  if (protocol !== "http/protobuf" && protocol !== "http/json") {
    return yield* new TracingConfigError({ message: `${protocolName} must be http/protobuf or http/json, not "${protocol}"` })
  }
  const headersName = Option.isSome(yield* optional("OTEL_EXPORTER_OTLP_TRACES_HEADERS")) ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS"
  const headerText = yield* optional(headersName)
  const headers = Option.isSome(headerText) ? headersOf(headersName, headerText.value) : {}
  if (headers instanceof TracingConfigError) return yield* headers
  const serviceName = Option.getOrElse(yield* optional("OTEL_SERVICE_NAME"), () => DEFAULT_SERVICE_NAME)
  return OtlpTracer.layer({ url: endpoint.value.url, resource: { serviceName }, headers }).pipe(
    Layer.provide(protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer),
    Layer.merge(Layer.succeed(HttpMiddleware.SpanNameGenerator, (request) => spanNameOf(request)))
  )
})

