import { CurrentActor, HedgerowApi } from "@hedgerow/api"
import { ParseError } from "@hedgerow/core"
import { Context, Effect, Layer, Tracer } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, type HttpApiEndpoint } from "effect/http-api"
import { readJsonBody } from "./body.ts"
import { readFormOrJsonBody } from "./form-body.ts"
import {
  type Answer,
  type Binding,
  type BoundGroupName,
  type EndpointCall,
  endpoints,
  type GroupName,
  isAnswer,
  type PublicBinding,
  publicEndpoints,
  type PublicGroupName,
  type Services,
  type SessionBinding,
  sessionEndpoints,
  type SessionGroupName
} from "./endpoints/index.ts"
import { cookiesOf } from "./cookies.ts"
import { sessionRequestOf } from "./session-request.ts"
import { headerText, type RequestHeaders } from "./request-headers.ts"
import { readSdkBody, sdkBodyOf } from "./sdk-body.ts"
import { SystemHandlers } from "./system.ts"
import { ServerSettings, type ServerSettingsShape } from "./settings.ts"

/** What `requestUrl` reads of a request: its target and headers, from Effect's request or Node's. */
export interface RequestTarget {
  readonly url: string
  readonly headers: RequestHeaders
}

/**
 * The absolute URL the client used, for pagination links: the mount's base path (which routing never
 * sees) before the path. X-Forwarded-* headers are believed only when the operator says a proxy sets them
 * (HEDGEROW_TRUST_PROXY), since any client could send them.
 */
export const requestUrl = (request: RequestTarget, settings: ServerSettingsShape): string | undefined => {
  const { trustProxy, basePath } = settings
  const header = (name: string) => headerText(request.headers, name)
  const forwarded = (name: string) => (trustProxy ? header(name)?.split(",")[0]?.trim() : undefined)
  const proto = forwarded("x-forwarded-proto")
  const scheme = proto === "https" || proto === "http" ? proto : "http"
  const host = forwarded("x-forwarded-host") ?? header("host") ?? "localhost"
  // A request line may carry an absolute URL; only its path and query are ours to echo.
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(request.url) && URL.canParse(request.url)
    ? (({ pathname, search }) => pathname + search)(new URL(request.url))
    : request.url
  const url = `${scheme}://${host}${basePath}${target}`
  return HOST.test(host) && URL.canParse(url) ? url : undefined
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** Like Django's host validation: a Host header that is not a host makes the request unanswerable. */
const invalidHost = new ParseError({ detail: "Invalid Host header." })

/** What HttpApi hands a raw handler: the decoded path, query and headers, and the request with its unread body. */
interface RawCall {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params: EndpointCall<any>["params"]
  readonly query: EndpointCall<any>["query"]
  readonly headers?: EndpointCall<any>["headers"]
}

/** An Answer as the server sends it: its status, its headers and cookies, its JSON text or no body. */
const sendAnswer = (value: Answer<unknown>) => {
  const cookies = value.cookies === undefined || value.cookies.length === 0 ? {} : { cookies: cookiesOf(value.cookies) }
  if (value.json === undefined) return HttpServerResponse.empty({ status: value.status, headers: value.headers, ...cookies })
  const options = { status: value.status, headers: value.headers, contentType: "application/json", ...cookies }
  return typeof value.json === "string" ? HttpServerResponse.text(value.json, options) : HttpServerResponse.uint8Array(value.json, options)
}

/** The builder's own face, seen one endpoint at a time by its types; a loop can only use it by name. */
interface Registry {
  readonly handleRaw: (name: string, handler: (raw: RawCall) => Effect.Effect<unknown, unknown, unknown>) => unknown
}

/** A builder with every endpoint handled. */
type Complete<H> = H extends HttpApiBuilder.Handlers<infer R, infer Endpoints, infer _Handled>
  ? HttpApiBuilder.Handlers<R, Endpoints, keyof Endpoints>
  : never

/** What a group's bindings are served with: the server's settings, and core's services to run them in. */
interface Serving {
  readonly settings: ServerSettingsShape
  readonly services: Context.Context<Services>
}

/**
 * A raw call with the URL the client used, for a binding that reads it; a Host header that is not a host
 * makes the request unanswerable. The binding runs with core's services as its whole context, set in one
 * step: merged into the request's context, they would be copied on every request. What it answers goes
 * out as an Answer says, or encoded by HttpApi.
 */
const withUrl = (raw: RawCall, serving: Serving, run: (url: string) => Effect.Effect<unknown, unknown, Services>) => {
  const url = requestUrl(raw.request, serving.settings)
  if (url === undefined) return Effect.fail(invalidHost)
  return Effect.map(Effect.updateContext(run(url), (request) => withRequestSpan(request, serving.services)), (value) =>
    isAnswer(value) ? sendAnswer(value) : value)
}

/** Core's services, with the request's span when a tracer made one, so that core's spans stay in the request's trace. */
const withRequestSpan = (request: Context.Context<never>, services: Context.Context<Services>) => {
  const span = Context.getOrUndefined(request, Tracer.ParentSpan)
  return span === undefined ? services : Context.add(services, Tracer.ParentSpan, span)
}

/** How an endpoint's body is read: as a form too where the contract takes one, else as JSON. */
const bodyReaderOf = (group: GroupName, endpoint: string) => {
  const declared = new Map(Object.entries<HttpApiEndpoint.Top>(HedgerowApi.groups[group].endpoints)).get(endpoint)
  return declared !== undefined && declared.payload.has("multipart/form-data") ? readFormOrJsonBody : readJsonBody
}

/**
 * Serves one binding. HttpApi decodes path and query but not the body: core reads it when its rules
 * need it, after scope and tenancy, in PostHog's order.
 */
const serve = (binding: Binding<any>, serving: Serving, readBody: typeof readJsonBody) => (raw: RawCall) =>
  Effect.withFiber((fiber) => {
    const actor = Context.getUnsafe(fiber.context, CurrentActor)
    return withUrl(raw, serving, (url) =>
      binding({ actor, params: raw.params, query: raw.query, headers: raw.headers ?? {}, body: readBody(raw.request), url }))
  })

/**
 * Serves one binding of a public group: no caller, and the body as the SDKs send it, or for a GET the
 * events in its `data` parameter, as older SDKs send them.
 */
const servePublic = (binding: PublicBinding<any>, serving: Serving) => (raw: RawCall) =>
  withUrl(raw, serving, (url) => {
    const query = raw.query as { readonly compression?: string; readonly data?: string } | undefined
    const payload = raw.request.method === "GET" && query?.data !== undefined
      ? sdkBodyOf(new Uint8Array(), query.compression, raw.request.headers, new URLSearchParams({ data: query.data }))
      : readSdkBody(raw.request, query?.compression)
    return binding({ params: raw.params, query: raw.query, headers: raw.headers ?? {}, payload, url })
  })

/** Serves one binding of a session group: no authenticated caller, the JSON body, the request's cookies and headers. */
const serveSession = (binding: SessionBinding<any>, serving: Serving) => (raw: RawCall) =>
  withUrl(raw, serving, (url) =>
    binding({
      params: raw.params,
      query: raw.query,
      headers: raw.headers ?? {},
      body: readJsonBody(raw.request),
      request: sessionRequestOf(raw.request, serving.settings),
      url
    }))

/**
 * HttpApi merges the context a group was built in into every request's context, copying both maps each
 * time. Built in a context of the middleware the contract gives its endpoints alone, a group keeps that
 * copy small; core's services reach its bindings through `withUrl` instead.
 */
const withMiddlewareOnly = <A, E, R>(group: BoundGroupName, layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> => {
  const middleware = new Set(Object.values(HedgerowApi.groups[group].endpoints).flatMap((endpoint) => [...endpoint.middlewares]))
  return Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(Layer.buildWithMemoMap(layer, memoMap, scope), (context: Context.Context<R>) =>
      Context.pick(...middleware)(context) as Context.Context<R>))
}

/**
 * The handlers of one group: every binding of `bindings` under its endpoint's name. `bindGroup` has
 * checked each binding against its endpoint; the builder's types follow one `handleRaw` call at a time,
 * so the loop registers through its untyped face and hands the builder back as complete.
 */
const registerGroup = <G extends GroupName | PublicGroupName | SessionGroupName, B>(
  group: G,
  bindings: { readonly [name: string]: B },
  serveOne: (binding: B, serving: Serving, name: string) => (raw: RawCall) => Effect.Effect<unknown, unknown, unknown>
) =>
  Layer.unwrap(Effect.gen(function*() {
    const serving: Serving = { settings: yield* ServerSettings, services: yield* Effect.context<Services>() }
    return withMiddlewareOnly(group, HttpApiBuilder.group(HedgerowApi, group, (handlers) => {
      const registry = handlers as unknown as Registry
      for (const [name, binding] of Object.entries(bindings)) registry.handleRaw(name, serveOne(binding, serving, name))
      return handlers as unknown as Complete<typeof handlers>
    }))
  }))

const serveGroup = <G extends GroupName>(group: G) =>
  registerGroup<G, Binding<any>>(group, endpoints[group], (binding, serving, name) => serve(binding, serving, bodyReaderOf(group, name)))
const servePublicGroup = <G extends PublicGroupName>(group: G) =>
  registerGroup<G, PublicBinding<any>>(group, publicEndpoints[group], servePublic)
const serveSessionGroup = <G extends SessionGroupName>(group: G) =>
  registerGroup<G, SessionBinding<any>>(group, sessionEndpoints[group], serveSession)

/** One handler layer per group of the contract, plus the unauthenticated health check. */
export const layerNoDeps = Layer.mergeAll(
  serveGroup("organizations"),
  serveGroup("organizationProjects"),
  serveGroup("domains"),
  serveGroup("batchExports"),
  serveGroup("invites"),
  serveGroup("members"),
  serveGroup("roles"),
  serveGroup("projects"),
  serveGroup("featureFlags"),
  serveGroup("flagRoleAccess"),
  serveGroup("flagDefinitions"),
  serveGroup("cohorts"),
  servePublicGroup("flagEvaluation"),
  serveGroup("groupTypes"),
  serveGroup("flagUsage"),
  servePublicGroup("sdkConfig"),
  servePublicGroup("capture"),
  serveGroup("personalApiKeys"),
  serveGroup("identity"),
  serveSessionGroup("sessions"),
  serveSessionGroup("signup"),
  SystemHandlers
)
