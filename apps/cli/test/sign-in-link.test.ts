import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lines, runChild, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-sign-in-link-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const OWNER = "admin@hedgerow.local"
const SPENT = {
  type: "validation_error",
  code: "sign_in_link_invalid",
  detail: "This sign-in link has been used, has expired or is not valid.",
  attr: null
}
const LINK = /^ {2}(http:\/\/\S+\/sign-in-link#([0-9A-Za-z]{43}))$/m

/** Follows a link as the console's page does: the part after `#` posted to the API of the server at `url`. */
const follow = (url: string, link: string) =>
  fetch(`${url}/api/login/link/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: link.slice(link.indexOf("#") + 1) })
  })

const stop = async (server: ReturnType<typeof startServe>) => {
  server.child.kill("SIGTERM")
  expect(await server.exited).toBe(0)
}

describe("the first start's one-time sign-in link, and the operator's command for a new one", () => {
  let printed = ""

  it("the first start prints a link to the console for its owner, which logs them in once", async () => {
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    const url = await servingUrl(server)
    await waitFor(server, /Ctrl-C/)
    const output = server.output()
    expect(output).toMatch(new RegExp(
      `^Sign in to the web console as ${OWNER} with this one-time link \\(shown only this once, keep it private; it works once, until \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\):$`,
      "m"
    ))
    const [, link] = LINK.exec(output)!
    printed = link!
    // No HEDGEROW_SITE_URL: the link names the address the server listens on.
    expect(printed.startsWith(`${url}/sign-in-link#`)).toBe(true)
    expect(output).toContain(`A new link, should this one be lost or expire (with the server stopped on the embedded store): npx hedgerow admin users sign-in-link ${OWNER}\n`)

    const used = await follow(url, printed)
    expect(used.status).toBe(200)
    const session = used.headers.getSetCookie().find((cookie) => cookie.startsWith("sessionid="))!.split(";")[0]!
    const me = await fetch(`${url}/api/users/@me/`, { headers: { cookie: session } })
    expect((await me.json()).email).toBe(OWNER)
    const again = await follow(url, printed)
    expect({ status: again.status, body: await again.json() }).toEqual({ status: 400, body: SPENT })
    // The request log has the path, never the secret (its lines are written some milliseconds late).
    await waitFor(server, /POST \/api\/login\/link\/ 400/)
    expect(server.output()).toContain("POST /api/login/link/ 200")
    expect(server.output().split(printed).length).toBe(2)
    await stop(server)
  })

  it("a later start prints no link", async () => {
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    await servingUrl(server)
    await waitFor(server, /Ctrl-C/)
    expect(server.output()).not.toContain("/sign-in-link#")
    expect(server.output()).toContain("Call it with a personal API key")
    await stop(server)
  })

  it("hedgerow admin users sign-in-link prints a new link at HEDGEROW_SITE_URL, which replaces the last; --json says the same", async () => {
    const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
      Effect.runPromise(runChild(["admin", "users", "sign-in-link", ...args], { HEDGEROW_DATA_DIR: dataDir, ...env }))
    const unset = await run([OWNER])
    expect(unset.stderr).toBe("")
    expect(unset.code).toBe(0)
    const told = lines(unset.stdout)
    expect(told).toHaveLength(3)
    expect(told[0]).toMatch(new RegExp(
      `^One-time sign-in link for ${OWNER}; it works once, until \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC, and any earlier link of theirs no longer works:$`
    ))
    expect(told[1]).toMatch(/^ {2}http:\/\/127\.0\.0\.1:8000\/sign-in-link#[0-9A-Za-z]{43}$/)
    expect(told[2]).toBe(
      "HEDGEROW_SITE_URL is not set, so the link names the default address, http://127.0.0.1:8000: for a server started with another --port or --host, change the address before the # (the secret after it stays), or set HEDGEROW_SITE_URL to where people reach the server."
    )
    const replaced = told[1]!.trim()

    const json = await run([OWNER, "--json"], { HEDGEROW_SITE_URL: "https://flags.example.com/" })
    expect(json.code).toBe(0)
    const made = JSON.parse(json.stdout)
    expect(Object.keys(made).sort()).toEqual(["email", "expires_at", "site_url_set", "sso_enforcement", "url"])
    expect(made).toMatchObject({ email: OWNER, site_url_set: true, sso_enforcement: null })
    expect(made.url).toMatch(/^https:\/\/flags\.example\.com\/sign-in-link#[0-9A-Za-z]{43}$/)
    expect(Date.parse(made.expires_at) - Date.now()).toBeGreaterThan(23.9 * 60 * 60 * 1000)

    const unknown = await run(["nobody@example.com"])
    expect(unknown.code).toBe(1)
    expect(lines(unknown.stderr)).toEqual(["error: No user with e-mail nobody@example.com. (field email)"])
    const badSite = await run([OWNER], { HEDGEROW_SITE_URL: "flags.example.com" })
    expect(badSite.code).toBe(1)
    expect(lines(badSite.stderr)).toEqual([
      "error: HEDGEROW_SITE_URL must be an http:// or https:// URL without query or credentials, not \"flags.example.com\""
    ])

    // Served again: the newest link logs in, the one it replaced and the first start's do not.
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    const url = await servingUrl(server)
    try {
      for (const link of [printed, replaced]) {
        const refused = await follow(url, link)
        expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 400, body: SPENT })
      }
      expect((await follow(url, made.url)).status).toBe(200)
    } finally {
      await stop(server)
    }
  }, 120_000)
})
