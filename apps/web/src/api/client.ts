import type { Method, Params, PathOf, Payload, Query, Success } from "./contract.ts"
import { csrfHeaders } from "./csrf.ts"

/** PostHog's error envelope, as the API answers every failure. */
export interface Envelope {
  readonly type: string
  readonly code: string
  readonly detail: string
  readonly attr: string | null
}

/** A request the API refused (its envelope), or one that got no usable answer (status 0). */
export class ApiError extends Error implements Envelope {
  readonly status: number
  readonly type: string
  readonly code: string
  readonly detail: string
  readonly attr: string | null
  constructor(status: number, envelope: Envelope) {
    super(envelope.detail)
    this.status = status
    this.type = envelope.type
    this.code = envelope.code
    this.detail = envelope.detail
    this.attr = envelope.attr
  }
}

/** Any failure as an ApiError: the API's own, or something else (status 0) in its words. */
export const asApiError = (cause: unknown): ApiError =>
  cause instanceof ApiError
    ? cause
    : new ApiError(0, { type: "client_error", code: "unexpected", detail: cause instanceof Error ? cause.message : String(cause), attr: null })

const isEnvelope = (body: unknown): body is Envelope =>
  typeof body === "object" && body !== null && typeof (body as Envelope).detail === "string" &&
  typeof (body as Envelope).code === "string"

type Scalar = string | number | boolean
/** Query values as a URL carries them: a list repeats its name. */
export type QueryValues = Readonly<Record<string, Scalar | ReadonlyArray<Scalar> | null | undefined>>

/** `template` with each `:name` replaced by its parameter, escaped. */
export const fillPath = (template: string, params: Readonly<Record<string, Scalar>> = {}): string =>
  template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`)
    return encodeURIComponent(String(value))
  })

/** `?a=1&b=x`, leaving out what is unset or empty. */
export const queryString = (query: QueryValues = {}): string => {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item))
  }
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** The API's codes for a request whose session (or key) is missing or no longer valid. */
const SESSION_GONE: ReadonlySet<string> = new Set(["not_authenticated", "authentication_failed"])

/** What a call refused for want of a session says, in place of the API's words about credentials. */
const SESSION_ENDED = "Your session has ended. Log in again to go on."

/** Called when any call, a read or a write, is refused for want of a session. */
let sessionLost: () => void = () => {}
export const onSessionLost = (handler: () => void) => {
  sessionLost = handler
}

interface Call {
  readonly method: string
  readonly url: string
  readonly payload?: unknown
  readonly signal?: AbortSignal | undefined
}

/**
 * One request to the API on this origin, with the session's cookies and, for a write, the CSRF token.
 * Resolves to the JSON body (undefined for an empty one); rejects with an ApiError.
 */
const send = async (call: Call): Promise<unknown> => {
  const headers: Record<string, string> = { accept: "application/json", ...csrfHeaders(call.method, document.cookie) }
  if (call.payload !== undefined) headers["content-type"] = "application/json"
  let response: Response
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers,
      credentials: "same-origin",
      ...(call.payload === undefined ? {} : { body: JSON.stringify(call.payload) }),
      ...(call.signal === undefined ? {} : { signal: call.signal })
    })
  } catch (cause) {
    if (call.signal?.aborted === true) throw cause
    throw new ApiError(0, { type: "network_error", code: "network", detail: "The server could not be reached.", attr: null })
  }
  const text = await response.text()
  let body: unknown = undefined
  if (text !== "") {
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
  }
  if (response.ok) return body
  if (response.status === 401 && isEnvelope(body) && SESSION_GONE.has(body.code)) {
    sessionLost()
    throw new ApiError(401, { ...body, detail: SESSION_ENDED })
  }
  if (isEnvelope(body)) throw new ApiError(response.status, body)
  throw new ApiError(response.status, {
    type: "server_error",
    code: "unexpected_answer",
    detail: `The server answered ${response.status} ${response.statusText}.`.replace(" .", "."),
    attr: null
  })
}

type Optional<K extends string, V> = [V] extends [undefined] ? { readonly [_ in K]?: undefined } : { readonly [_ in K]: V }

/** What a call to an endpoint takes: its path parameters, query and payload as the contract types them. */
export type Options<M extends Method, P extends string> =
  & Optional<"params", Params<M, P>>
  & { readonly query?: Partial<NonNullable<Query<M, P>>> | undefined }
  & Optional<"payload", Payload<M, P>>
  & { readonly signal?: AbortSignal | undefined }

/**
 * Calls the endpoint the contract declares with `method` and `path` (its template, as declared), typed by
 * the contract: a path it does not declare does not compile.
 */
export const request = <M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  ...[options]: [Params<M, P>] extends [undefined] ? [options?: Options<M, P>] : [options: Options<M, P>]
): Promise<Success<M, P>> => {
  const { params, query, payload, signal } = (options ?? {}) as {
    params?: Record<string, Scalar>
    query?: QueryValues
    payload?: unknown
    signal?: AbortSignal
  }
  return send({ method, url: fillPath(path, params) + queryString(query), payload, signal }) as Promise<Success<M, P>>
}
