import { HedgerowApi, Authorization } from "@hedgerow/api"
import { CURRENT, decodeInput } from "@hedgerow/core"
import { Config, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { Flag } from "effect/cli"
import { FetchHttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { UsageError } from "./output.ts"

/**
 * API commands go over HTTP with the client derived from packages/api, so they exercise exactly what
 * any other client sees, and failures arrive as core's own error classes decoded from the envelope.
 */

export const DEFAULT_URL = "http://127.0.0.1:8000"

/** Spread into an API command's flags. */
export const remoteFlags = {
  url: Flag.String("url").pipe(
    Flag.withDescription(`Server base URL (env HEDGEROW_URL, default ${DEFAULT_URL})`),
    Flag.withFallbackConfig(Config.String("HEDGEROW_URL")),
    Flag.withDefault(DEFAULT_URL)
  ),
  key: Flag.Redacted("key").pipe(
    Flag.withDescription("Personal API key (env HEDGEROW_API_KEY)"),
    Flag.withFallbackConfig(Config.Redacted("HEDGEROW_API_KEY")),
    Flag.optional
  )
}

/** `--org` of the organization commands: an organization id, by default the key holder's current one. */
export const currentOrgFlag = Flag.String("org").pipe(
  Flag.withDescription(`Organization id, or ${CURRENT} for the key holder's current one`),
  Flag.withDefault(CURRENT)
)

export interface RemoteOptions {
  readonly url: string
  readonly key: Option.Option<Redacted.Redacted<string>>
}

// The auth middleware is bound when the client is made, so each key gets its own client.
const makeClient = (baseUrl: string, key: Redacted.Redacted<string>) =>
  HttpApiClient.make(HedgerowApi, { baseUrl }).pipe(
    Effect.provide(Layer.mergeAll(
      FetchHttpClient.layer,
      HttpApiMiddleware.layerClient(Authorization, ({ next, request }) => next(HttpClientRequest.bearerToken(request, key)))
    ))
  )

export type ApiClient = Effect.Success<ReturnType<typeof makeClient>>

/** Runs `f` with a client for `--url` and `--key`; a missing key is a usage error, not a 401 round trip. */
export const withApi = <A, E, R>(
  options: RemoteOptions,
  f: (client: ApiClient) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | UsageError, R> =>
  Option.match(options.key, {
    onNone: () => Effect.fail(new UsageError({ message: "no API key: pass --key or set HEDGEROW_API_KEY" })),
    onSome: (key) => Effect.flatMap(makeClient(options.url.replace(/\/+$/, ""), key), f)
  })

/**
 * The client refuses to send a payload its schema rejects, with a schema error of its own. Checking it
 * first with the same schema, and wording the failure with core's DRF translation, makes the CLI say
 * exactly what the server would have said about the same body.
 */
export const checkPayload = <S extends Schema.Top>(schema: S, payload: unknown) =>
  // Decoded as the server decodes it (DRF-style coercions included); the client re-encodes the result.
  decodeInput(schema as unknown as Schema.Decoder<S["Type"]>)(payload)
