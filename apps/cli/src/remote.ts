import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import { Flag } from "effect/cli"
import { readCredentials, sameServer } from "./credentials.ts"
import { UsageError } from "./output.ts"
import { type Core, loadApi, loadCore } from "./packages.ts"

/**
 * API commands go over HTTP with the client derived from packages/api, so they exercise exactly what
 * any other client sees, and failures arrive as core's own error classes decoded from the envelope.
 */

export const DEFAULT_URL = "http://127.0.0.1:8000"

/** Spread into an API command's flags. */
export const remoteFlags = {
  url: Flag.String("url").pipe(
    Flag.withDescription(`Server base URL (env HEDGEROW_URL; else the one hedgerow login stored; default ${DEFAULT_URL})`),
    Flag.withFallbackConfig(Config.String("HEDGEROW_URL")),
    Flag.optional
  ),
  key: Flag.Redacted("key").pipe(
    Flag.withDescription("Personal API key (env HEDGEROW_API_KEY; else the one hedgerow login stored, for its own server only)"),
    Flag.withFallbackConfig(Config.Redacted("HEDGEROW_API_KEY")),
    Flag.optional
  )
}

export interface RemoteOptions {
  readonly url: Option.Option<string>
  readonly key: Option.Option<Redacted.Redacted<string>>
}

/** The server and key a command talks to; the key may still be missing. */
export interface Remote {
  readonly url: string
  readonly key: Option.Option<Redacted.Redacted<string>>
}

/**
 * `--url` and `--key`, else the environment, else what `hedgerow login` stored, else the default URL.
 * The stored key goes only to the server it was stored for: a `--url` naming another server never gets it.
 */
export const resolveRemote = (options: RemoteOptions): Effect.Effect<Remote, UsageError> =>
  Option.isSome(options.url) && Option.isSome(options.key)
    ? Effect.succeed({ url: options.url.value, key: options.key })
    : Effect.map(readCredentials, (stored) => {
      const url = Option.getOrElse(options.url, () => Option.match(stored, { onNone: () => DEFAULT_URL, onSome: (login) => login.url }))
      const storedKey = Option.filter(stored, (login) => sameServer(login.url, url)).pipe(Option.map((login) => Redacted.make(login.key)))
      return { url, key: Option.orElse(options.key, () => storedKey) }
    })

// The auth middleware is bound when the client is made, so each key gets its own client. The contract
// and the HTTP client load only here, when an API command runs.
const makeClient = (baseUrl: string, key: Redacted.Redacted<string> | undefined) =>
  Effect.all([loadApi, Effect.promise(() => import("effect/http")), Effect.promise(() => import("effect/http-api"))]).pipe(
    Effect.flatMap(([{ HedgerowApi, Authorization }, { FetchHttpClient, HttpClientRequest }, { HttpApiClient, HttpApiMiddleware }]) =>
      HttpApiClient.make(HedgerowApi, { baseUrl }).pipe(
        Effect.provide(Layer.mergeAll(
          FetchHttpClient.layer,
          HttpApiMiddleware.layerClient(Authorization, ({ next, request }) =>
            next(key === undefined ? request : HttpClientRequest.bearerToken(request, key)))
        ))
      ))
  )

export type ApiClient = Effect.Success<ReturnType<typeof makeClient>>

/** The cookie a session's writes echo in `X-CSRFToken`. */
const CSRF_COOKIE = "posthog_csrftoken"

/**
 * A client that keeps the cookies the server sets, as a browser does: after `sessions.login` it is
 * logged in, and its writes carry the CSRF token the server asks of a session.
 */
const makeSessionClient = (baseUrl: string) =>
  Effect.all([
    loadApi,
    Effect.promise(() => import("effect/http")),
    Effect.promise(() => import("effect/http-api")),
    Effect.promise(() => import("effect/Ref"))
  ]).pipe(
    Effect.flatMap(([{ HedgerowApi, Authorization }, { FetchHttpClient, HttpClient, HttpClientRequest }, { HttpApiClient, HttpApiMiddleware }, Ref]) =>
      Effect.gen(function*() {
        const jar = yield* Ref.make<ReadonlyArray<import("effect/http").Cookies.Cookie>>([])
        // The base URL is put on first: the cookies a request carries are chosen by its whole URL. Every
        // request carries the CSRF token too, log-out included, which no key middleware sees.
        const withToken = (request: import("effect/http").HttpClientRequest.HttpClientRequest) =>
          Effect.map(Ref.get(jar), (cookies) => {
            const token = cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value
            return token === undefined ? request : HttpClientRequest.setHeader(request, "x-csrftoken", token)
          })
        const keeping = Layer.effect(
          HttpClient.HttpClient,
          Effect.map(HttpClient.HttpClient, (client) =>
            client.pipe(
              HttpClient.mapRequest(HttpClientRequest.prependUrl(baseUrl)),
              HttpClient.mapRequestEffect(withToken),
              HttpClient.withCookiesRef(jar)
            ))
        ).pipe(Layer.provide(FetchHttpClient.layer))
        // The session is the credential: the key middleware adds nothing.
        const noKey = HttpApiMiddleware.layerClient(Authorization, ({ next, request }) => next(request))
        return yield* HttpApiClient.make(HedgerowApi).pipe(Effect.provide(Layer.mergeAll(keeping, noKey)))
      }))
  )

/** Runs `f` with a client for this server that keeps its session cookies (for `hedgerow login`). */
export const withSessionClient = <A, E, R>(url: string, f: (client: ApiClient) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(makeSessionClient(url.replace(/\/+$/, "")), f)

/** Runs `f` with a client for this server and key. */
export const withClient = <A, E, R>(
  url: string,
  key: Redacted.Redacted<string> | undefined,
  f: (client: ApiClient) => Effect.Effect<A, E, R>
) =>
  Effect.flatMap(makeClient(url.replace(/\/+$/, ""), key), f)

/** Runs `f` with a client for the resolved server and key; a missing key is a usage error, not a 401 round trip. */
export const withApi = <A, E, R>(
  options: RemoteOptions,
  f: (client: ApiClient) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | UsageError, R> =>
  Effect.flatMap(resolveRemote(options), (remote): Effect.Effect<A, E | UsageError, R> =>
    Option.match(remote.key, {
      onNone: () => Effect.fail(new UsageError({ message: "no API key: pass --key, set HEDGEROW_API_KEY or run hedgerow login" })),
      onSome: (key) => withClient(remote.url, key, f)
    }))

/** Runs `f` with a client for the resolved server that sends no key, for what anyone may call (accepting an invite). */
export const withPublicApi = <A, E, R>(url: Option.Option<string>, f: (client: ApiClient) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(resolveRemote({ url, key: Option.none() }), (remote) => withClient(remote.url, undefined, f))

/**
 * The client refuses to send a payload its schema (core's, picked by `schemaOf`) rejects, with a schema
 * error of its own. Checking it first with the same schema, and wording the failure as core words a
 * rejected body, makes the CLI say exactly what the server would have said about the same body.
 */
export const checkPayload = <S extends Schema.Top>(schemaOf: (core: Core) => S, payload: unknown) =>
  // Decoded as the server decodes a body, text read as numbers or booleans where a field wants one; the
  // client encodes the result again.
  Effect.flatMap(loadCore, (core) => core.decodeInput(schemaOf(core) as unknown as Schema.Decoder<S["Type"]>)(payload))
