import type { OAuthProvider } from "@hedgerow/core"
import { OAuthClient, type OAuthClientShape, OAuthProviderFailed, type ProviderAnswer } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { createLocalJWKSet, errors as JoseErrors, type JSONWebKeySet, jwtVerify } from "jose"
import { Resolver } from "node:dns/promises"
import { type BoundedAnswer, boundedRequest, type BoundedRequest } from "./bounded-http.ts"

/** An OpenID Connect provider (Google, GitLab): found from its issuer's discovery document. */
export interface OpenIdProviderOptions {
  readonly kind: "openid"
  readonly clientId: string
  readonly clientSecret: string
  /** The issuer exactly as its ID tokens name it; discovery is at `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string
  /** Other names the provider's ID tokens may give the same issuer. */
  readonly issuerAliases: ReadonlyArray<string>
}

/** GitHub (or GitHub Enterprise Server): plain OAuth 2, the person read from its API. */
export interface GitHubProviderOptions {
  readonly kind: "github"
  readonly clientId: string
  readonly clientSecret: string
  /** Where `/login/oauth/authorize` and `/login/oauth/access_token` are. */
  readonly webUrl: string
  /** Where `/user` and `/user/emails` are. */
  readonly apiUrl: string
}

export type OAuthProviderOptions = OpenIdProviderOptions | GitHubProviderOptions

export interface OAuthClientOptions {
  readonly providers: Partial<Record<OAuthProvider, OAuthProviderOptions>>
  /** Each request to a provider, from its lookup to the last byte of the answer. */
  readonly timeoutMillis: number
}

/** A provider's discovery document, keys, token and API answers are a few KiB; nothing a log-in reads is larger. */
const MAX_ANSWER_BYTES = 256 * 1024
/** A discovery document and a key set are read again after this long. */
const CACHE_MILLIS = 60 * 60 * 1000
/** A token signed with a key not in the set read fetches the set again, at most this often. */
const KEYS_REFRESH_MILLIS = 60 * 1000
/** Signatures by a key pair only: a symmetric algorithm would make the client's secret the signing key. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]
/** Clocks of the provider and of this server may differ by this much. */
const CLOCK_TOLERANCE_SECONDS = 60
const OPENID_SCOPES = "openid email profile"
const GITHUB_SCOPES = "read:user user:email"
const GITHUB_HEADERS = { accept: "application/vnd.github+json", "user-agent": "Hedgerow", "x-github-api-version": "2022-11-28" }

interface Discovery {
  readonly authorization_endpoint: string
  readonly token_endpoint: string
  readonly jwks_uri: string
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A provider's error code (`invalid_grant`, …) when its body names one in the usual form, for the log. */
const errorCodeOf = (body: unknown): string => {
  const code = isRecord(body) ? body["error"] : undefined
  return typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? ` (${code})` : ""
}

const parseJson = (answer: BoundedAnswer, what: string): unknown => {
  try {
    return JSON.parse(answer.body)
  } catch {
    throw new Error(`${what} is not JSON`)
  }
}

/** The answer's JSON when its status is 200, else an error naming the status (and the provider's error code). */
const okJson = (answer: BoundedAnswer, what: string): unknown => {
  if (answer.status !== 200) {
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      body = undefined
    }
    throw new Error(`${what} answered ${answer.status}${errorCodeOf(body)}`)
  }
  return parseJson(answer, what)
}

const urlOf = (base: string, parameters: Record<string, string>): string => {
  const url = new URL(base)
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value)
  return url.toString()
}

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString()

/** A value kept for a while, fetched again once it is old; a failed fetch is not kept. */
const cached = <A>(fetch: () => Promise<A>, maxAgeMillis: number) => {
  let held: { readonly value: Promise<A>; readonly at: number } | undefined
  return {
    get: (minAgeToRefresh = maxAgeMillis): Promise<A> => {
      const now = Date.now()
      if (held === undefined || now - held.at >= minAgeToRefresh) {
        const value = fetch()
        const entry = { value, at: now }
        held = entry
        value.catch(() => {
          if (held === entry) held = undefined
        })
      }
      return held.value
    }
  }
}

/** Talks to providers over bounded HTTP (see bounded-http.ts); every failure is an OAuthProviderFailed naming its cause. */
export const make = (options: OAuthClientOptions, resolver: Resolver): OAuthClientShape => {
  const send = (request: Omit<BoundedRequest, "timeoutMillis" | "maxBytes">) =>
    boundedRequest(resolver, { ...request, timeoutMillis: options.timeoutMillis, maxBytes: MAX_ANSWER_BYTES })

  const openId = new Map<OAuthProvider, { readonly discovery: ReturnType<typeof cached<Discovery>>; readonly keys: ReturnType<typeof cached<JSONWebKeySet>> }>()
  for (const [provider, settings] of Object.entries(options.providers) as Array<[OAuthProvider, OAuthProviderOptions]>) {
    if (settings.kind !== "openid") continue
    const discovery = cached(async () => {
      const document = okJson(
        await send({ method: "GET", url: `${settings.issuer}/.well-known/openid-configuration`, headers: { accept: "application/json" } }),
        "the discovery document"
      )
      if (!isRecord(document)) throw new Error("the discovery document is not an object")
      // The document must be the issuer's own: ID tokens are checked against this issuer.
      if (document["issuer"] !== settings.issuer) throw new Error(`the discovery document names another issuer than ${settings.issuer}`)
      const endpoints = ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const
      for (const name of endpoints) {
        const value = document[name]
        if (typeof value !== "string" || !URL.canParse(value)) throw new Error(`the discovery document has no ${name}`)
      }
      return document as unknown as Discovery
    }, CACHE_MILLIS)
    const keys = cached(async () => {
      const set = okJson(
        await send({ method: "GET", url: (await discovery.get()).jwks_uri, headers: { accept: "application/json" } }),
        "the key set"
      )
      if (!isRecord(set) || !Array.isArray(set["keys"])) throw new Error("the key set is not a JWKS")
      return set as unknown as JSONWebKeySet
    }, CACHE_MILLIS)
    openId.set(provider, { discovery, keys })
  }

  const settingsOf = (provider: OAuthProvider): OAuthProviderOptions => {
    const settings = options.providers[provider]
    if (settings === undefined) throw new Error(`${provider} is not configured`)
    return settings
  }

  const verifyIdToken = async (provider: OAuthProvider, settings: OpenIdProviderOptions, token: unknown) => {
    if (typeof token !== "string") throw new Error("the token endpoint sent no ID token")
    const cache = openId.get(provider)!
    const verify = async (keys: JSONWebKeySet) =>
      (await jwtVerify(token, createLocalJWKSet(keys), {
        issuer: [settings.issuer, ...settings.issuerAliases],
        audience: settings.clientId,
        algorithms: ALGORITHMS,
        requiredClaims: ["exp", "iat", "sub"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS
      })).payload
    try {
      return await verify(await cache.keys.get())
    } catch (error) {
      // The provider may have rolled its keys since the set was read.
      if (!(error instanceof JoseErrors.JWKSNoMatchingKey)) throw error
      return await verify(await cache.keys.get(KEYS_REFRESH_MILLIS))
    }
  }

  const authorizationUrl: OAuthClientShape["authorizationUrl"] = (request) =>
    attempt(async () => {
      const settings = settingsOf(request.provider)
      const common = {
        client_id: settings.clientId,
        redirect_uri: request.redirectUri,
        response_type: "code",
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: "S256"
      }
      if (settings.kind === "github") return urlOf(`${settings.webUrl}/login/oauth/authorize`, { ...common, scope: GITHUB_SCOPES })
      const discovery = await openId.get(request.provider)!.discovery.get()
      return urlOf(discovery.authorization_endpoint, { ...common, scope: OPENID_SCOPES, nonce: request.nonce })
    })

  const exchange: OAuthClientShape["exchange"] = (request) =>
    attempt(async (): Promise<ProviderAnswer> => {
      const settings = settingsOf(request.provider)
      const body = form({
        grant_type: "authorization_code",
        code: request.code,
        redirect_uri: request.redirectUri,
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        code_verifier: request.codeVerifier
      })
      const headers = { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }
      if (settings.kind === "openid") {
        const tokenEndpoint = (await openId.get(request.provider)!.discovery.get()).token_endpoint
        const tokens = okJson(await send({ method: "POST", url: tokenEndpoint, headers, body }), "the token endpoint")
        const claims = await verifyIdToken(request.provider, settings, isRecord(tokens) ? tokens["id_token"] : undefined)
        return { kind: "id_token", claims }
      }
      // GitHub answers a refused code with 200 and an `error` field.
      const tokens = okJson(await send({ method: "POST", url: `${settings.webUrl}/login/oauth/access_token`, headers, body }), "the token endpoint")
      const accessToken = isRecord(tokens) ? tokens["access_token"] : undefined
      if (typeof accessToken !== "string" || accessToken === "") throw new Error(`the token endpoint sent no access token${errorCodeOf(tokens)}`)
      const api = { ...GITHUB_HEADERS, authorization: `Bearer ${accessToken}` }
      const [user, emails] = await Promise.all([
        send({ method: "GET", url: `${settings.apiUrl}/user`, headers: api }).then((answer) => okJson(answer, "GitHub's /user")),
        send({ method: "GET", url: `${settings.apiUrl}/user/emails`, headers: api }).then((answer) => okJson(answer, "GitHub's /user/emails"))
      ])
      return { kind: "github", user, emails }
    })

  return { authorizationUrl, exchange }
}

/** A provider call as an effect: its error's message becomes the failure's reason. Each request ends by its own deadline. */
const attempt = <A>(run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) => new OAuthProviderFailed({ reason: error instanceof Error ? error.message : String(error) })
  })

/** The providers given, over DNS queries to the system's name servers. */
export const layer = (options: OAuthClientOptions) =>
  Layer.succeed(OAuthClient, make(options, new Resolver({ timeout: Math.min(options.timeoutMillis, 1_500), tries: 2 })))
