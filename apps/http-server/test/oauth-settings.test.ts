import { SsoSettings } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { OAuthFromConfig, oauthOptionsFromConfig } from "../src/settings/oauth.ts"

const configOf = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnv({ env }))

const read = (env: Record<string, string>) =>
  Effect.runPromise(
    oauthOptionsFromConfig.pipe(
      Effect.provide(configOf(env)),
      Effect.catchTag("OAuthConfigError", (error) => Effect.succeed(error.message))
    )
  )

const configured = (env: Record<string, string>) =>
  Effect.runPromise(Effect.map(Effect.service(SsoSettings), (s) => [...s.oauth].sort()).pipe(
    Effect.provide(OAuthFromConfig.pipe(Layer.provide(configOf(env))))
  ))

const PAIR = (provider: string) => ({ [`HEDGEROW_OAUTH_${provider}_CLIENT_ID`]: `${provider}-id`, [`HEDGEROW_OAUTH_${provider}_CLIENT_SECRET`]: `${provider}-secret` })

describe("the OAuth settings", () => {
  it("configure no provider when none is set", async () => {
    expect(await read({})).toEqual({ providers: {}, timeoutMillis: 5000 })
    expect(await configured({})).toEqual([])
  })

  it("take each provider's id and secret, with the public providers' addresses by default", async () => {
    expect(await read({ ...PAIR("GOOGLE"), ...PAIR("GITLAB"), ...PAIR("GITHUB") })).toEqual({
      providers: {
        "google-oauth2": {
          kind: "openid",
          clientId: "GOOGLE-id",
          clientSecret: "GOOGLE-secret",
          issuer: "https://accounts.google.com",
          issuerAliases: ["accounts.google.com"]
        },
        gitlab: { kind: "openid", clientId: "GITLAB-id", clientSecret: "GITLAB-secret", issuer: "https://gitlab.com", issuerAliases: [] },
        github: { kind: "github", clientId: "GITHUB-id", clientSecret: "GITHUB-secret", webUrl: "https://github.com", apiUrl: "https://api.github.com" }
      },
      timeoutMillis: 5000
    })
    expect(await configured({ ...PAIR("GITHUB"), ...PAIR("GOOGLE") })).toEqual(["github", "google-oauth2"])
  })

  it("take a self-managed GitLab, GitHub Enterprise (its API under /api/v3 unless named), another issuer and a timeout", async () => {
    expect(await read({
      ...PAIR("GOOGLE"),
      HEDGEROW_OAUTH_GOOGLE_ISSUER: "http://127.0.0.1:9999/",
      ...PAIR("GITLAB"),
      HEDGEROW_OAUTH_GITLAB_URL: "https://gitlab.example.com/",
      ...PAIR("GITHUB"),
      HEDGEROW_OAUTH_GITHUB_URL: "https://github.example.com",
      HEDGEROW_OAUTH_TIMEOUT_MS: "1500"
    })).toEqual({
      providers: {
        "google-oauth2": { kind: "openid", clientId: "GOOGLE-id", clientSecret: "GOOGLE-secret", issuer: "http://127.0.0.1:9999", issuerAliases: [] },
        gitlab: { kind: "openid", clientId: "GITLAB-id", clientSecret: "GITLAB-secret", issuer: "https://gitlab.example.com", issuerAliases: [] },
        github: {
          kind: "github",
          clientId: "GITHUB-id",
          clientSecret: "GITHUB-secret",
          webUrl: "https://github.example.com",
          apiUrl: "https://github.example.com/api/v3"
        }
      },
      timeoutMillis: 1500
    })
    const api = await read({ ...PAIR("GITHUB"), HEDGEROW_OAUTH_GITHUB_API_URL: "http://[::1]:8080/api" })
    expect(typeof api === "object" && api.providers.github).toMatchObject({ webUrl: "https://github.com", apiUrl: "http://[::1]:8080/api" })
  })

  it("refuse a half-set provider in one line naming what is missing", async () => {
    expect(await read({ HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "id" })).toBe(
      "HEDGEROW_OAUTH_GITHUB_CLIENT_ID is set but HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET is not: set both or neither"
    )
    expect(await read({ HEDGEROW_OAUTH_GOOGLE_CLIENT_SECRET: "secret", HEDGEROW_OAUTH_GOOGLE_CLIENT_ID: "  " })).toBe(
      "HEDGEROW_OAUTH_GOOGLE_CLIENT_SECRET is set but HEDGEROW_OAUTH_GOOGLE_CLIENT_ID is not: set both or neither"
    )
    expect(await read({ HEDGEROW_OAUTH_GITLAB_URL: "https://gitlab.example.com" })).toBe(
      "HEDGEROW_OAUTH_GITLAB_URL is set but HEDGEROW_OAUTH_GITLAB_CLIENT_ID and HEDGEROW_OAUTH_GITLAB_CLIENT_SECRET are not: set both, or unset HEDGEROW_OAUTH_GITLAB_URL"
    )
  })

  it("refuse an address that is not https (http only on loopback), or carries a query or credentials, and a bad timeout", async () => {
    const refused = (name: string, value: string) =>
      `${name} must be an https:// URL (http:// only on loopback) without query or credentials, not "${value}"`
    expect(await read({ ...PAIR("GITLAB"), HEDGEROW_OAUTH_GITLAB_URL: "http://gitlab.example.com" })).toBe(
      refused("HEDGEROW_OAUTH_GITLAB_URL", "http://gitlab.example.com")
    )
    expect(await read({ ...PAIR("GOOGLE"), HEDGEROW_OAUTH_GOOGLE_ISSUER: "https://issuer.example.com/?a=b" })).toBe(
      refused("HEDGEROW_OAUTH_GOOGLE_ISSUER", "https://issuer.example.com/?a=b")
    )
    expect(await read({ ...PAIR("GITHUB"), HEDGEROW_OAUTH_GITHUB_API_URL: "https://user:pw@api.example.com" })).toBe(
      refused("HEDGEROW_OAUTH_GITHUB_API_URL", "https://user:pw@api.example.com")
    )
    expect(await read({ ...PAIR("GITHUB"), HEDGEROW_OAUTH_GITHUB_URL: "github.com" })).toBe(refused("HEDGEROW_OAUTH_GITHUB_URL", "github.com"))
    expect(await read({ HEDGEROW_OAUTH_TIMEOUT_MS: "0" })).toBe("HEDGEROW_OAUTH_TIMEOUT_MS must be a whole number of milliseconds from 1 to 60000, not \"0\"")
    expect(await read({ HEDGEROW_OAUTH_TIMEOUT_MS: "5s" })).toBe("HEDGEROW_OAUTH_TIMEOUT_MS must be a whole number of milliseconds from 1 to 60000, not \"5s\"")
  })
})
