import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { lines, servingUrl, startServe } from "./cli-runner.ts"

describe("hedgerow serve with OAuth providers", () => {
  it("refuses, on one line with exit 1, to start with a provider half set, before opening the store", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-oauth-"))
    try {
      const refused = startServe({ HEDGEROW_DATA_DIR: dir, HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "Iv1.abc" })
      expect(await refused.exited).toBe(1)
      expect(lines(refused.output())).toEqual([
        "error: HEDGEROW_OAUTH_GITHUB_CLIENT_ID is set but HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET is not: set both or neither"
      ])
      expect(readdirSync(dir)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("serves the log-in routes of the providers configured, and never prints a client secret", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-oauth-"))
    const secret = "a-github-secret-the-output-never-shows"
    try {
      const server = startServe({
        PORT: "0",
        HEDGEROW_DATA_DIR: dir,
        HEDGEROW_SITE_URL: "https://flags.example.com",
        HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "Iv1.abc",
        HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: secret
      })
      const url = await servingUrl(server)
      await expect.poll(() => server.output()).toContain(`OAuth log-in with github: ${url}/login/<provider>/`)
      const start = await fetch(`${url}/login/github/`, { redirect: "manual" })
      expect(start.status).toBe(302)
      const location = new URL(start.headers.get("location")!)
      expect(`${location.origin}${location.pathname}`).toBe("https://github.com/login/oauth/authorize")
      expect(location.searchParams.get("redirect_uri")).toBe("https://flags.example.com/complete/github/")
      expect(start.headers.getSetCookie()[0]).toMatch(/^hedgerow_oauth_login=[0-9A-Za-z]{40}; Max-Age=600; .*HttpOnly; Secure; SameSite=Lax$/)
      const other = await fetch(`${url}/login/gitlab/`, { redirect: "manual" })
      expect(other.headers.get("location")).toBe("/login?error_code=improperly_configured_sso")
      server.child.kill("SIGTERM")
      expect(await server.exited).toBe(0)
      expect(server.output()).not.toContain(secret)
      // On https the SAML answer's cookie is required, and nothing about it is said.
      expect(server.output()).not.toContain("SAML log-in on a plain-http")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
