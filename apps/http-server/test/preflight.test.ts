import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "./oauth/server.ts"

const GITHUB = { HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "Iv1.preflight", HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: "preflight-secret" }

const preflight = async (server: TestServer, path = "/_preflight/") => {
  const response = await fetch(`${server.url}${path}`, { headers: { accept: "application/json" } })
  return { status: response.status, body: await response.json() }
}

/** `GET /_preflight/` over real HTTP: which OAuth providers the deployment's settings configure, to anyone. */
describe("the preflight", () => {
  let bare: TestServer
  let github: TestServer

  beforeAll(async () => {
    ;[bare, github] = await Promise.all([startServer({}), startServer(GITHUB)])
  }, 60_000)
  afterAll(async () => {
    await Promise.all([bare?.close(), github?.close()])
  })

  it("names every OAuth provider, none available where none is configured, and needs no credentials", async () => {
    expect(await preflight(bare)).toEqual({
      status: 200,
      body: { available_social_auth_providers: { "google-oauth2": false, github: false, gitlab: false } }
    })
  })

  it("says which providers the settings configure, with or without the trailing slash", async () => {
    const available = { status: 200, body: { available_social_auth_providers: { "google-oauth2": false, github: true, gitlab: false } } }
    expect(await preflight(github)).toEqual(available)
    expect(await preflight(github, "/_preflight")).toEqual(available)
  })

  it("answers a wrong method with 405, as every keyless path does", async () => {
    const response = await fetch(`${bare.url}/_preflight/`, { method: "POST" })
    expect(response.status).toBe(405)
  })
})
