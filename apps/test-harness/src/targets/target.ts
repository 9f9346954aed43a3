import { HedgerowApi } from "@hedgerow/api"
import type { BoundGroupName, EndpointName } from "@hedgerow/http-server"
import { Schema } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"

/** An endpoint of the contract, named like HedgerowApi's group and endpoint. */
export type EndpointRef = {
  [G in BoundGroupName]: { readonly group: G; readonly endpoint: EndpointName<G> }
}[BoundGroupName]

export interface Call {
  /** The personal API key; absent means no Authorization header. */
  readonly key?: string | undefined
  readonly params?: Readonly<Record<string, string | number>>
  readonly query?: Readonly<Record<string, string | number>>
  /** Request headers the endpoint reads (conditional requests, `x-csrftoken`), by lower-case name. */
  readonly headers?: Readonly<Record<string, string>>
  /** Cookies the request carries (`sessionid`, `posthog_csrftoken`), as a browser sends them. */
  readonly cookies?: Readonly<Record<string, string>>
  readonly body?: unknown
  /** A `multipart/form-data` body instead of `body`: text fields in order, and files by field name. */
  readonly form?: FormCall
}

export interface FormCall {
  readonly fields?: ReadonlyArray<readonly [string, string]>
  readonly files?: Readonly<Record<string, { readonly name: string; readonly content: string | Uint8Array }>>
}

export interface Reply {
  readonly status: number
  readonly body: any
  /** The answer's headers by lower-case name, where the target has them (every target for answers that carry some). */
  readonly headers?: Readonly<Record<string, string>>
  /** The answer's `Set-Cookie` headers, on every target. */
  readonly setCookies?: ReadonlyArray<string>
}

export interface RawRequest {
  readonly method: string
  /** Path and query, e.g. `/api/projects/?limit=1`. */
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array | FormData
}

/** Where the scenarios run: the same calls, answered in-process by core or over HTTP. */
export interface Target {
  readonly name: string
  readonly call: (ref: EndpointRef, call: Call) => Promise<Reply>
  /** Raw HTTP for transport scenarios (bodies, media types, routing); absent on the in-process core target. */
  readonly raw?: (request: RawRequest) => Promise<Omit<Reply, "headers"> & { readonly headers: Headers }>
}

/** The contract's own description of an endpoint: path template, method, success schema and status. */
export const endpointOf = (ref: EndpointRef) => {
  const endpoint = new Map(Object.entries<HttpApiEndpoint.Top>(HedgerowApi.groups[ref.group].endpoints)).get(ref.endpoint)
  if (endpoint === undefined) throw new Error(`No endpoint ${ref.group}.${ref.endpoint} in the contract`)
  const success = [...endpoint.success][0]!
  // HttpApiSchema.status puts the code on the schema or, for plain structs, on its key context.
  const status = Schema.resolveAnnotations(success)?.["httpApiStatus"] ?? success.ast.context?.annotations?.["httpApiStatus"]
  return {
    path: endpoint.path,
    method: endpoint.method,
    params: endpoint.params,
    query: endpoint.query,
    headers: endpoint.headers,
    success,
    status: typeof status === "number" ? status : 200
  }
}

/** `/api/organizations/:organization_id/` with its parameters filled in, plus the query string. */
export const renderPath = (template: string, call: Call): string => {
  const path = template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = call.params?.[name]
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${template}`)
    return encodeURIComponent(String(value))
  })
  const query = new URLSearchParams(Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)])).toString()
  return query === "" ? path : `${path}?${query}`
}
