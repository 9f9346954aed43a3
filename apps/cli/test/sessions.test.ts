import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lines, runChild, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-sessions-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const OWNER = "admin@hedgerow.local"
const PASSWORD = "owner password 1"
const run = (args: ReadonlyArray<string>, input?: string) => Effect.runPromise(runChild(args, { HEDGEROW_DATA_DIR: dataDir }, input))

const login = (url: string, email: string, password: string) =>
  fetch(`${url}/api/login/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) })

describe("logging in, from the first start on", () => {
  let key = ""

  it("the first start says how to give the owner a password and log in", async () => {
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    const url = await servingUrl(server)
    await waitFor(server, /Ctrl-C/)
    key = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/.exec(server.output())![1]!
    expect(server.output()).toContain(`npx hedgerow admin users set-password --email ${OWNER}`)
    expect(server.output()).toContain(`curl -X PATCH -H "Authorization: Bearer ${key}"`)
    expect(server.output()).toContain(`then log in: POST ${url}/api/login/`)
    // The owner has no password yet: nothing logs in as them.
    expect((await login(url, OWNER, PASSWORD)).status).toBe(400)
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("admin users set-password reads the password from stdin and refuses PostHog's too-short ones", async () => {
    const short = await run(["admin", "users", "set-password", "--email", OWNER], "short\n")
    expect(short.code).toBe(1)
    expect(lines(short.stderr)).toEqual([
      "error: This password is too short. It must contain at least 8 characters. (field password)"
    ])
    const unknown = await run(["admin", "users", "set-password", "--email", "nobody@example.com"], `${PASSWORD}\n`)
    expect(lines(unknown.stderr)).toEqual(["error: No user with e-mail nobody@example.com. (field email)"])
    const set = await run(["admin", "users", "set-password", "--email", OWNER], `${PASSWORD}\n`)
    expect(set.code).toBe(0)
    expect(lines(set.stdout)).toEqual([`Set the password of ${OWNER}; their sessions have ended. They can log in with it now.`])
    expect(set.stdout + set.stderr).not.toContain(PASSWORD)
  })

  it("the owner logs in; an invitee accepts with hedgerow invites accept, no key, and logs in too", async () => {
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    const url = await servingUrl(server)
    try {
      const owner = await login(url, OWNER, PASSWORD)
      expect(owner.status).toBe(200)
      expect(owner.headers.getSetCookie().some((cookie) => cookie.startsWith("sessionid="))).toBe(true)

      const invited = await fetch(`${url}/api/organizations/@current/invites/`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ target_email: "new.teammate@example.com", send_email: false })
      })
      expect(invited.status).toBe(201)
      const { id } = await invited.json() as { id: string }

      const unknown = await Effect.runPromise(runChild(["invites", "accept", "00000000-0000-4000-8000-000000000000", "--url", url], {}, "x\n"))
      expect(unknown.code).toBe(1)
      expect(lines(unknown.stderr)).toEqual(["error: The provided invite ID is not valid."])

      const noName = await Effect.runPromise(runChild(["invites", "accept", id, "--url", url], {}, "teammate password\n"))
      expect(lines(noName.stderr)).toContain("error: --first-name is required when stdin is not a terminal")

      const accepted = await Effect.runPromise(
        runChild(["invites", "accept", id, "--url", url, "--first-name", "Tess"], {}, "teammate password\n")
      )
      expect(accepted.code).toBe(0)
      expect(lines(accepted.stderr)).toEqual(["Invite to Hedgerow for n**********e@example.com."])
      expect(lines(accepted.stdout)).toEqual([
        "new.teammate@example.com is now a member of Hedgerow; log in with this e-mail and password."
      ])
      expect((await login(url, "new.teammate@example.com", "teammate password")).status).toBe(200)

      const again = await Effect.runPromise(runChild(["invites", "accept", id, "--url", url, "--first-name", "Tess"], {}, "teammate password\n"))
      expect(lines(again.stderr)).toEqual(["error: The provided invite ID is not valid."])
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })
})
