import type { HedgerowApi } from "@hedgerow/api"
import type { Schema } from "effect"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

/**
 * The browser's view of packages/api's contract, in types only: nothing of Effect or of the contract is
 * bundled. Each endpoint is named by its method and path template, exactly as the contract declares
 * them, and its parts are the wire (encoded) side of its schemas, which is what JSON carries.
 */

type GroupsOf<Api> = Api extends HttpApi.HttpApi<infer _Id, infer Groups> ? Groups : never

/** Every endpoint of the contract. */
export type Endpoint = HttpApiGroup.Endpoints<GroupsOf<typeof HedgerowApi>>

export type Method = Endpoint["method"]

/** The path templates the contract serves with `method`, e.g. `/api/organizations/:organization_id/`. */
export type PathOf<M extends Method> = Extract<Endpoint, { readonly method: M }>["path"]

type Select<M extends Method, P extends string> = Extract<Endpoint, { readonly method: M; readonly path: P }>

/**
 * A schema's JSON form; `undefined` where the endpoint declares none. The contract wraps bodies in
 * `toCodecJson`, whose own encoded side is any JSON: the wrapped schema's encoded side is the shape.
 */
type Wire<S> = [S] extends [never] ? undefined
  : S extends Schema.toCodecJson<infer Inner> ? Inner["Encoded"]
  : S extends { readonly Encoded: infer E } ? E
  : never

export type Params<M extends Method, P extends string> = Wire<HttpApiEndpoint.Params<Select<M, P>>>
export type Query<M extends Method, P extends string> = Wire<HttpApiEndpoint.Query<Select<M, P>>>
export type Payload<M extends Method, P extends string> = Wire<HttpApiEndpoint.Payload<Select<M, P>>>
export type Success<M extends Method, P extends string> = Wire<HttpApiEndpoint.Success<Select<M, P>>>
