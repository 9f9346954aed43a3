import type { HedgerowApi } from "@hedgerow/api"
import type { Body, CoreServices, PayloadTooLarge, SessionRequest, SetCookie, UserActor, ValidationError } from "@hedgerow/core"
import type { Effect, Layer } from "effect"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"

type ApiGroups = typeof HedgerowApi extends HttpApi.HttpApi<string, infer Groups> ? Groups : never
type GroupOf<G extends string> = HttpApiGroup.WithIdentifier<ApiGroups, G>

/**
 * Groups answered without a personal API key: the SDKs' flag evaluation and events, authorized by the
 * body's project token, and posthog-js's remote configuration, by the path's.
 */
export type PublicGroupName = "flagEvaluation" | "sdkConfig" | "capture"
/**
 * Groups answered whoever calls, logged in or not: log-in, log-out and invite sign-up, which read the
 * request's session cookie themselves and may set cookies.
 */
export type SessionGroupName = "sessions" | "signup"
/** Groups whose endpoints are bound to core for a caller; `system` (health) answers on its own, without a caller. */
export type GroupName = Exclude<HttpApiGroup.Identifier<ApiGroups>, "system" | PublicGroupName | SessionGroupName>
/** Every group bound to core, with a caller or without. */
export type BoundGroupName = GroupName | PublicGroupName | SessionGroupName
export type EndpointName<G extends BoundGroupName> = HttpApiEndpoint.Identifier<HttpApiGroup.Endpoints<GroupOf<G>>>
export type EndpointOf<G extends BoundGroupName, E extends string> = HttpApiEndpoint.WithIdentifier<
  HttpApiGroup.Endpoints<GroupOf<G>>,
  E
>

/** A request part the endpoint declares, as its schema decodes it; `{}` where it declares none. */
type Decoded<S> = [S] extends [never] ? {} : S extends { readonly Type: infer A } ? A : never

/** `void` for 204 endpoints, the success schema's type otherwise. */
type SuccessOf<Ep extends HttpApiEndpoint.Constraint> = Ep["~Success"] extends typeof HttpApiSchema.NoContent ? void
  : Ep["~Success"]["Type"]

/** Core's services, which every binding may use. */
export type Services = Layer.Success<typeof CoreServices.layerNoDeps>

/** What an endpoint hands to core: the caller, its decoded path, query and headers, the lazy body, the request URL. */
export interface EndpointCall<Ep extends HttpApiEndpoint.Constraint> {
  readonly actor: UserActor
  readonly params: Decoded<HttpApiEndpoint.Params<Ep>>
  readonly query: Decoded<HttpApiEndpoint.Query<Ep>>
  /** The request headers the endpoint declares (conditional requests), as decoded; `{}` where it declares none. */
  readonly headers: Decoded<HttpApiEndpoint.Headers<Ep>>
  /** The JSON body, read when core asks for it: after scope and tenancy, as PostHog orders its checks. */
  readonly body: Body
  /** Absolute request URL, for pagination links. */
  readonly url: string
}

/**
 * An answer with more to it than a value of the success type: a status of its own (304), headers (an
 * ETag), and the body as JSON text already made, or none. The server sends it as it is; the harness's
 * in-process target reads it the same way. `A` is the success type the text encodes.
 */
export interface Answer<A> {
  readonly _tag: "Answer"
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body as JSON text (or its UTF-8 bytes), or undefined for an answer without one. */
  readonly json: string | Uint8Array | undefined
  /** Cookies the answer sets (a log-in's session), none when absent. */
  readonly cookies?: ReadonlyArray<SetCookie>
  /** Never set: it ties the text to the endpoint's success type. */
  readonly body?: A
}

/** An answer whose body is `json`, the encoding of a value of type `A` (or none). */
export const answer = <A>(
  status: number,
  headers: Readonly<Record<string, string>>,
  json: string | Uint8Array | undefined,
  cookies: ReadonlyArray<SetCookie> = []
): Answer<A> => ({
  _tag: "Answer",
  status,
  headers,
  json,
  cookies
})

export const isAnswer = (value: unknown): value is Answer<unknown> =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "Answer"

/**
 * An endpoint bound to its core call: it answers with the endpoint's success type (or an Answer that
 * carries it) or one of its declared errors.
 */
export type Binding<Ep extends HttpApiEndpoint.Constraint> = (
  call: EndpointCall<Ep>
) => Effect.Effect<SuccessOf<Ep> | Answer<SuccessOf<Ep>>, Ep["~Error"]["Type"], Services>

export type GroupBindings<G extends GroupName> = { readonly [E in EndpointName<G>]: Binding<EndpointOf<G, E>> }

/**
 * What a public endpoint hands to core: no caller, and the body as the SDKs send it, undone of its
 * transport encodings (gzip, base64, a form's `data`) and parsed, or the 400 or 413 that it cannot be.
 */
export interface PublicEndpointCall<Ep extends HttpApiEndpoint.Constraint> {
  readonly params: Decoded<HttpApiEndpoint.Params<Ep>>
  readonly query: Decoded<HttpApiEndpoint.Query<Ep>>
  readonly headers: Decoded<HttpApiEndpoint.Headers<Ep>>
  readonly payload: Effect.Effect<unknown, ValidationError | PayloadTooLarge>
  readonly url: string
}

export type PublicBinding<Ep extends HttpApiEndpoint.Constraint> = (
  call: PublicEndpointCall<Ep>
) => Effect.Effect<SuccessOf<Ep> | Answer<SuccessOf<Ep>>, Ep["~Error"]["Type"], Services>

export type PublicGroupBindings<G extends PublicGroupName> = {
  readonly [E in EndpointName<G>]: PublicBinding<EndpointOf<G, E>>
}

/**
 * The bindings of one group, every endpoint once. The compiler checks each against the contract: a
 * renamed path parameter, a changed success schema or an undeclared error fails here.
 */
export const bindGroup = <G extends GroupName>(_group: G, bindings: GroupBindings<G>): GroupBindings<G> => bindings

/** The same for a public group. */
export const bindPublicGroup = <G extends PublicGroupName>(_group: G, bindings: PublicGroupBindings<G>): PublicGroupBindings<G> =>
  bindings

/** What a session endpoint hands to core: no authenticated caller, the JSON body, and the request as the session rules read it. */
export interface SessionEndpointCall<Ep extends HttpApiEndpoint.Constraint> {
  readonly params: Decoded<HttpApiEndpoint.Params<Ep>>
  readonly query: Decoded<HttpApiEndpoint.Query<Ep>>
  readonly headers: Decoded<HttpApiEndpoint.Headers<Ep>>
  readonly body: Body
  readonly request: SessionRequest
  readonly url: string
}

export type SessionBinding<Ep extends HttpApiEndpoint.Constraint> = (
  call: SessionEndpointCall<Ep>
) => Effect.Effect<SuccessOf<Ep> | Answer<SuccessOf<Ep>>, Ep["~Error"]["Type"], Services>

export type SessionGroupBindings<G extends SessionGroupName> = {
  readonly [E in EndpointName<G>]: SessionBinding<EndpointOf<G, E>>
}

/** The same for a session group. */
export const bindSessionGroup = <G extends SessionGroupName>(_group: G, bindings: SessionGroupBindings<G>): SessionGroupBindings<G> =>
  bindings
