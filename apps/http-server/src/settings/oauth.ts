import { type OAuthProvider, SsoSettings } from "@hedgerow/core"
import { type OAuthClientOptions, oauthClientLayer, type OAuthProviderOptions } from "@hedgerow/store"
import { Config, Data, Effect, Layer, Option } from "effect"

/** An OAuth setting the operator got wrong or left half-set: the server refuses to start, in one line. */
export class OAuthConfigError extends Data.TaggedError("OAuthConfigError")<{ readonly message: string }> {}

/** Each request to a provider ends after this long unless HEDGEROW_OAUTH_TIMEOUT_MS says otherwise. */
export const DEFAULT_OAUTH_TIMEOUT_MS = 5_000
const MAX_OAUTH_TIMEOUT_MS = 60_000

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

const GOOGLE_ISSUER = "https://accounts.google.com"
/** Google says its ID tokens name their issuer with or without the scheme. */
const GOOGLE_ISSUER_ALIASES = ["accounts.google.com"]

/** A variable's value, trimmed; empty counts as unset. */
const text = (name: string) =>
  Effect.map(Config.option(Config.String(name)), (raw) => Option.filter(Option.map(raw, (value) => value.trim()), (value) => value !== ""))

/**
 * A provider's address: https (plain http only on loopback, where a test or a tunnel runs one), without
 * query, fragment or credentials, kept without its trailing slash.
 */
const endpoint = (name: string, raw: string) => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  const usable = url !== undefined && url.search === "" && url.hash === "" && url.username === "" && url.password === "" &&
    (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)))
  return usable
    ? Effect.succeed(`${url.origin}${url.pathname}`.replace(/\/+$/, ""))
    : Effect.fail(new OAuthConfigError({ message: `${name} must be an https:// URL (http:// only on loopback) without query or credentials, not "${raw}"` }))
}

/** One provider's variables: its client id and secret (both or neither), and addresses that need them. */
const provider = (prefix: string, addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const id = yield* text(`${prefix}_CLIENT_ID`)
    const secret = yield* text(`${prefix}_CLIENT_SECRET`)
    const urls: Record<string, Option.Option<string>> = {}
    for (const suffix of addresses) {
      const raw = yield* text(`${prefix}_${suffix}`)
      urls[suffix] = Option.isNone(raw) ? raw : Option.some(yield* endpoint(`${prefix}_${suffix}`, raw.value))
    }
    if (Option.isNone(id) && Option.isNone(secret)) {
      const stray = addresses.find((suffix) => Option.isSome(urls[suffix]!))
      if (stray === undefined) return Option.none()
      return yield* new OAuthConfigError({
        message: `${prefix}_${stray} is set but ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET are not: set both, or unset ${prefix}_${stray}`
      })
    }
    if (Option.isNone(id) || Option.isNone(secret)) {
      const [set, missing] = Option.isSome(id) ? ["CLIENT_ID", "CLIENT_SECRET"] : ["CLIENT_SECRET", "CLIENT_ID"]
      return yield* new OAuthConfigError({ message: `${prefix}_${set} is set but ${prefix}_${missing} is not: set both or neither` })
    }
    const address = (suffix: string, fallback: string) => Option.getOrElse(urls[suffix]!, () => fallback)
    return Option.some({ clientId: id.value, clientSecret: secret.value, address })
  })

/**
 * The OAuth providers this deployment logs people in with, from the environment, read once at start:
 * - Google: HEDGEROW_OAUTH_GOOGLE_CLIENT_ID and _CLIENT_SECRET; HEDGEROW_OAUTH_GOOGLE_ISSUER (default
 *   https://accounts.google.com), found by OpenID discovery.
 * - GitLab: HEDGEROW_OAUTH_GITLAB_CLIENT_ID and _CLIENT_SECRET; HEDGEROW_OAUTH_GITLAB_URL (default
 *   https://gitlab.com, a self-managed GitLab's address), its OpenID issuer.
 * - GitHub: HEDGEROW_OAUTH_GITHUB_CLIENT_ID and _CLIENT_SECRET; HEDGEROW_OAUTH_GITHUB_URL (default
 *   https://github.com) and HEDGEROW_OAUTH_GITHUB_API_URL (default https://api.github.com, or
 *   `<HEDGEROW_OAUTH_GITHUB_URL>/api/v3` for GitHub Enterprise Server).
 * - HEDGEROW_OAUTH_TIMEOUT_MS: each request to a provider (default 5000).
 */
export const oauthOptionsFromConfig = Effect.gen(function*() {
  const providers: Partial<Record<OAuthProvider, OAuthProviderOptions>> = {}
  const google = yield* provider("HEDGEROW_OAUTH_GOOGLE", ["ISSUER"])
  if (Option.isSome(google)) {
    const { clientId, clientSecret, address } = google.value
    const issuer = address("ISSUER", GOOGLE_ISSUER)
    providers["google-oauth2"] = { kind: "openid", clientId, clientSecret, issuer, issuerAliases: issuer === GOOGLE_ISSUER ? GOOGLE_ISSUER_ALIASES : [] }
  }
  const gitlab = yield* provider("HEDGEROW_OAUTH_GITLAB", ["URL"])
  if (Option.isSome(gitlab)) {
    const { clientId, clientSecret, address } = gitlab.value
    providers.gitlab = { kind: "openid", clientId, clientSecret, issuer: address("URL", "https://gitlab.com"), issuerAliases: [] }
  }
  const github = yield* provider("HEDGEROW_OAUTH_GITHUB", ["URL", "API_URL"])
  if (Option.isSome(github)) {
    const { clientId, clientSecret, address } = github.value
    const webUrl = address("URL", "https://github.com")
    const apiUrl = address("API_URL", webUrl === "https://github.com" ? "https://api.github.com" : `${webUrl}/api/v3`)
    providers.github = { kind: "github", clientId, clientSecret, webUrl, apiUrl }
  }
  const timeout = yield* text("HEDGEROW_OAUTH_TIMEOUT_MS")
  const timeoutMillis = Option.isNone(timeout) ? DEFAULT_OAUTH_TIMEOUT_MS : Number(timeout.value)
  if (Option.isSome(timeout) && !(/^\d+$/.test(timeout.value) && timeoutMillis >= 1 && timeoutMillis <= MAX_OAUTH_TIMEOUT_MS)) {
    return yield* new OAuthConfigError({
      message: `HEDGEROW_OAUTH_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${MAX_OAUTH_TIMEOUT_MS}, not "${timeout.value}"`
    })
  }
  return { providers, timeoutMillis } satisfies OAuthClientOptions
})

/** Core's SsoSettings (which OAuth providers are configured) and the client that reaches them, from the environment. */
export const OAuthFromConfig = Layer.unwrap(Effect.map(oauthOptionsFromConfig, (options) =>
  Layer.merge(
    Layer.succeed(SsoSettings, { oauth: new Set(Object.keys(options.providers) as Array<OAuthProvider>) }),
    oauthClientLayer(options)
  )))
