import type { Body, CoreServices, PayloadTooLarge, SessionRequest, UserActor, ValidationError } from "@hedgerow/core"
import type { Effect, Layer } from "effect"
import type { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import type { Answer } from "../answers/answer.ts"
import type { Access, AccessOf, ApiGroupOf, BoundGroupName } from "./access.ts"

export type EndpointName<G extends BoundGroupName> = HttpApiEndpoint.Identifier<HttpApiGroup.Endpoints<ApiGroupOf<G>>>
export type EndpointOf<G extends BoundGroupName, E extends string> = HttpApiEndpoint.WithIdentifier<
  HttpApiGroup.Endpoints<ApiGroupOf<G>>,
  E
>

/** A request part the endpoint declares, as its schema decodes it; `{}` where it declares none. */
type Decoded<S> = [S] extends [never] ? {} : S extends { readonly Type: infer A } ? A : never

/** `void` for 204 endpoints, the success schema's type otherwise. */
type SuccessOf<Ep extends HttpApiEndpoint.Constraint> = Ep["~Success"] extends typeof HttpApiSchema.NoContent ? void
  : Ep["~Success"]["Type"]

/** Core's services, which every binding may use. */
export type Services = Layer.Success<typeof CoreServices.layerNoDeps>

/** What every call holds: the request's path, query and headers as decoded, and its URL. */
export interface RequestParts<Params, Query, Headers> {
  readonly params: Params
  readonly query: Query
  /** The request headers the endpoint declares (conditional requests), as decoded; `{}` where it declares none. */
  readonly headers: Headers
  /** Absolute request URL, for pagination links. */
  readonly url: string
}

/** What a call holds besides its request parts, by who the endpoint answers. */
export interface AccessParts {
  readonly authenticated: {
    readonly actor: UserActor
    /** The JSON (or form) body, read when core asks for it: after scope and tenancy, as PostHog orders its checks. */
    readonly body: Body
  }
  readonly public: {
    /**
     * The body as the SDKs send it, undone of its transport encodings (gzip, base64, a form's `data`)
     * and parsed, or the 400 or 413 that it cannot be.
     */
    readonly payload: Effect.Effect<unknown, ValidationError | PayloadTooLarge>
  }
  readonly session: {
    /** The JSON body, read when core asks for it. */
    readonly body: Body
    /** The request as core's session rules read it: its cookies, CSRF token, origin and address. */
    readonly request: SessionRequest
  }
}

/** What an endpoint hands to core, for the callers its group answers. */
export type EndpointCall<Ep extends HttpApiEndpoint.Constraint, A extends Access> =
  & RequestParts<Decoded<HttpApiEndpoint.Params<Ep>>, Decoded<HttpApiEndpoint.Query<Ep>>, Decoded<HttpApiEndpoint.Headers<Ep>>>
  & AccessParts[A]

/**
 * An endpoint bound to its core call: it answers with the endpoint's success type (or an Answer that
 * carries it) or one of its declared errors.
 */
export type Binding<Ep extends HttpApiEndpoint.Constraint, A extends Access> = (
  call: EndpointCall<Ep, A>
) => Effect.Effect<SuccessOf<Ep> | Answer<SuccessOf<Ep>>, Ep["~Error"]["Type"], Services>

export type GroupBindings<G extends BoundGroupName> = {
  readonly [E in EndpointName<G>]: Binding<EndpointOf<G, E>, AccessOf<G>>
}

/**
 * The bindings of one group, every endpoint once. The compiler checks each against the contract: a
 * renamed path parameter, a changed success schema or an undeclared error fails here.
 */
export const bindGroup = <G extends BoundGroupName>(_group: G, bindings: GroupBindings<G>): GroupBindings<G> => bindings
