import { totpCode } from "@hedgerow/core"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lines, runChild, type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-2fa-"))
const home = mkdtempSync(path.join(tmpdir(), "hedgerow-2fa-home-"))
const OWNER = "admin@hedgerow.local"
const PASSWORD = "owner password 1"
const STEP_MS = 30_000

/** The CLI with its own home, so the stored login is this test's. */
const run = (args: ReadonlyArray<string>, input?: string) =>
  Effect.runPromise(runChild(args, { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") }, input))

/** The owner's browser turns two-factor authentication on; the app's secret comes back. */
const setUpApp = async (url: string): Promise<string> => {
  const loggedIn = await fetch(`${url}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: OWNER, password: PASSWORD })
  })
  expect(loggedIn.status).toBe(200)
  const cookies = loggedIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!)
  const csrf = cookies.find((cookie) => cookie.startsWith("posthog_csrftoken="))!.split("=")[1]!
  const headers = { cookie: cookies.join("; "), "x-csrftoken": csrf, "content-type": "application/json" }
  const started = await (await fetch(`${url}/api/users/@me/two_factor_start_setup/`, { headers })).json() as { secret: string }
  const validated = await fetch(`${url}/api/users/@me/two_factor_validate/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ token: totpCode(started.secret, Date.now()) })
  })
  expect(validated.status).toBe(200)
  return started.secret
}

describe("hedgerow login for a user with two-factor authentication", () => {
  let server: Serving
  let url = ""
  let secret = ""

  beforeAll(async () => {
    // The first start makes the owner; the password is set while no server holds the data directory.
    const first = startServe({ HEDGEROW_DATA_DIR: dataDir })
    await waitFor(first, /Ctrl-C/)
    first.child.kill("SIGTERM")
    expect(await first.exited).toBe(0)
    const set = await Effect.runPromise(runChild(["admin", "users", "set-password", "--email", OWNER], { HEDGEROW_DATA_DIR: dataDir }, `${PASSWORD}\n`))
    expect(set.code).toBe(0)
    server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    url = await servingUrl(server)
    secret = await setUpApp(url)
  }, 60_000)
  afterAll(async () => {
    server.child.kill("SIGTERM")
    await server.exited
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  })

  it("asks for --otp when there is no terminal to ask on, and says what a wrong code is", async () => {
    const asked = await run(["login", "--url", url, "--email", OWNER], `${PASSWORD}\n`)
    expect(asked.code).toBe(1)
    expect(lines(asked.stderr)).toEqual(["error: --otp is required when stdin is not a terminal"])
    const wrong = String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0")
    const refused = await run(["login", "--url", url, "--email", OWNER, "--otp", wrong], `${PASSWORD}\n`)
    expect(refused.code).toBe(1)
    expect(lines(refused.stderr)).toEqual(["error: Invalid authentication code"])
  })

  it("finishes the log-in with the app's code and keeps a key, as a password log-in does", async () => {
    // A failure makes the next code wait a second.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const done = await run(["login", "--url", url, "--email", OWNER, "--otp", totpCode(secret, Date.now() + STEP_MS)], `${PASSWORD}\n`)
    expect(done.code).toBe(0)
    expect(lines(done.stdout)[0]).toMatch(new RegExp(`^Logged in to ${url} as ${OWNER} with key "hedgerow CLI on .*" \\(phx_\\.\\.\\.\\w{4}\\); stored in `))
    const status = await run(["auth", "status"])
    expect(status.code).toBe(0)
    expect(lines(status.stdout)[0]).toBe(`Logged in to ${url} as ${OWNER}`)
  })
})
