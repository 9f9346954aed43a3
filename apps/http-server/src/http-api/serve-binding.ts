import { CurrentActor, HedgerowApi } from "@hedgerow/api"
import { ParseError } from "@hedgerow/core"
import { Context, Effect, Tracer } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { isAnswer } from "../answers/answer.ts"
import { responseOf } from "../answers/response.ts"
import type { BoundGroupName } from "../endpoints/access.ts"
import type { Services } from "../endpoints/binding.ts"
import type { NamedBinding, RunnableBinding } from "../endpoints/registry.ts"
import { readFormOrJsonBody } from "../request/form-body.ts"
import { readJsonBody } from "../request/json-body.ts"
import { readSdkBody, sdkBodyOf } from "../request/sdk-body.ts"
import { sessionRequestOf } from "../request/session.ts"
import { requestUrl } from "../request/url.ts"
import type { ServerSettingsShape } from "../settings/server-settings.ts"

/** What HttpApi hands a raw handler: the decoded path, query and headers, and the request with its unread body. */
export interface RawCall {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params: unknown
  readonly query: unknown
  readonly headers?: unknown
}

/** What a group's bindings are served with: the server's settings, and core's services to run them in. */
export interface Serving {
  readonly settings: ServerSettingsShape
  readonly services: Context.Context<Services>
}

/** A Host header that is not a host makes the request unanswerable, as PostHog answers it: 400. */
const invalidHost = new ParseError({ detail: "Invalid Host header." })

/** Core's services, with the request's span when a tracer made one, so that core's spans stay in the request's trace. */
const withRequestSpan = (request: Context.Context<never>, services: Context.Context<Services>) => {
  const span = Context.getOrUndefined(request, Tracer.ParentSpan)
  return span === undefined ? services : Context.add(services, Tracer.ParentSpan, span)
}

/**
 * A raw call with the URL the client used, for a binding that reads it. The binding runs with core's
 * services as its whole context, set in one step: merged into the request's context, they would be
 * copied on every request. What it answers goes out as an Answer says, or encoded by HttpApi.
 */
const withUrl = (raw: RawCall, serving: Serving, run: (url: string) => Effect.Effect<unknown, unknown, Services>) => {
  const url = requestUrl(raw.request, serving.settings)
  if (url === undefined) return Effect.fail(invalidHost)
  return Effect.map(Effect.updateContext(run(url), (request) => withRequestSpan(request, serving.services)), (value) =>
    isAnswer(value) ? responseOf(value) : value)
}

type BodyReader = typeof readJsonBody

/** How an endpoint's body is read: as a form too where the contract takes one, else as JSON. */
const bodyReaderOf = (group: BoundGroupName, endpoint: string): BodyReader => {
  const declared = new Map(Object.entries<HttpApiEndpoint.Top>(HedgerowApi.groups[group].endpoints)).get(endpoint)
  return declared !== undefined && declared.payload.has("multipart/form-data") ? readFormOrJsonBody : readJsonBody
}

/**
 * A caller's binding: the actor the key middleware found, and the body unread. HttpApi decodes path and
 * query but not the body: core reads it when its rules need it, after scope and tenancy, in PostHog's order.
 */
const serveAuthenticated = (run: RunnableBinding<"authenticated">, serving: Serving, readBody: BodyReader) => (raw: RawCall) =>
  Effect.withFiber((fiber) => {
    const actor = Context.getUnsafe(fiber.context, CurrentActor)
    return withUrl(raw, serving, (url) =>
      run({ actor, params: raw.params, query: raw.query, headers: raw.headers ?? {}, body: readBody(raw.request), url }))
  })

/**
 * A public binding: no caller, and the body as the SDKs send it, or for a GET the events in its `data`
 * parameter, as older SDKs send them.
 */
const servePublic = (run: RunnableBinding<"public">, serving: Serving) => (raw: RawCall) =>
  withUrl(raw, serving, (url) => {
    const query = raw.query as { readonly compression?: string; readonly data?: string } | undefined
    const payload = raw.request.method === "GET" && query?.data !== undefined
      ? sdkBodyOf(new Uint8Array(), query.compression, raw.request.headers, new URLSearchParams({ data: query.data }))
      : readSdkBody(raw.request, query?.compression)
    return run({ params: raw.params, query: raw.query, headers: raw.headers ?? {}, payload, url })
  })

/** A session binding: no authenticated caller, the JSON body, the request's cookies and headers. */
const serveSession = (run: RunnableBinding<"session">, serving: Serving) => (raw: RawCall) =>
  withUrl(raw, serving, (url) =>
    run({
      params: raw.params,
      query: raw.query,
      headers: raw.headers ?? {},
      body: readJsonBody(raw.request),
      request: sessionRequestOf(raw.request, serving.settings),
      url
    }))

/** The raw handler of an endpoint of `group`, made once when the server starts: its call is read as its access says. */
export const rawHandlerOf = (group: BoundGroupName, endpoint: string, binding: NamedBinding, serving: Serving) => {
  switch (binding.access) {
    case "authenticated":
      return serveAuthenticated(binding.run, serving, bodyReaderOf(group, endpoint))
    case "public":
      return servePublic(binding.run, serving)
    case "session":
      return serveSession(binding.run, serving)
  }
}
