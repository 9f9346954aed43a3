import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lines, runInProcess, type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

// One store for the file, bootstrapped before any server starts, so that no banner prints the key: then
// the key appearing anywhere in a server's output is a leak. Servers run one at a time on it.
const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-request-log-"))
const tenant = { key: "", keyId: "", organization: "", project: 0 }
// Shaped like a key, but no key: its 401 must not print it either.
const INVALID_KEY = "phx_" + "Z".repeat(43)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

beforeAll(async () => {
  const ran = await Effect.runPromise(runInProcess(["admin", "bootstrap", "--data-dir", dataDir, "--json"]))
  expect(ran.code).toBe(0)
  const boot = JSON.parse(ran.stdout)
  Object.assign(tenant, { key: boot.personal_api_key, organization: boot.organization_id, project: boot.project_id })
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** `hedgerow serve` on the file's store with `env`, once its banner is out. */
const serve = async (env: Record<string, string> = {}) => {
  const server = startServe({ HEDGEROW_DATA_DIR: dataDir, ...env })
  const url = await servingUrl(server)
  await waitFor(server, /Ctrl-C stops the server cleanly\.\n/)
  return { server, url }
}

const stop = async (server: Serving) => {
  server.child.kill("SIGTERM")
  expect(await server.exited).toBe(0)
}

/** What the server printed after its banner: the log. */
const logOf = (server: Serving) => server.output().split("Ctrl-C stops the server cleanly.\n")[1] ?? ""

/** Waits until the log holds a line with this request id (lines go out at the end of the server's turn). */
const logged = (server: Serving, requestId: string) => waitFor(server, new RegExp(requestId))

interface Call {
  readonly status: number
  readonly requestId: string
  readonly body: string
}

const call = async (url: string, init: RequestInit & { key?: string } = {}): Promise<Call> => {
  const headers = new Headers(init.headers)
  if (init.key !== undefined) headers.set("authorization", `Bearer ${init.key}`)
  const response = await fetch(url, { ...init, headers })
  return { status: response.status, requestId: response.headers.get("x-request-id")!, body: await response.text() }
}

describe("the request log of `hedgerow serve`", () => {
  it("is text by default: one line per request with time, level, method, path template, status, duration, request id and key id", async () => {
    const { server, url } = await serve()
    try {
      const me = JSON.parse((await call(`${url}/api/personal_api_keys/@current/`, { key: tenant.key })).body)
      tenant.keyId = me.id
      expect(tenant.keyId).toMatch(UUID)
      const project = await call(`${url}/api/organizations/${tenant.organization}/projects/${tenant.project}/`, { key: tenant.key })
      const flag = await call(`${url}/api/projects/${tenant.project}/feature_flags/424242/`, { key: tenant.key })
      const anonymous = await call(`${url}/api/projects/`)
      expect([project.status, flag.status, anonymous.status]).toEqual([200, 404, 401])
      await logged(server, anonymous.requestId)

      const entries = lines(logOf(server))
      expect(entries).toHaveLength(4)
      const TEXT = /^(\S+Z) (info|warn|error) (\S+) (\S+) (\d{3}) (\d+\.\d)ms request_id=(\S+)(?: key_id=(\S+))?$/
      const parsed = entries.map((line) => {
        const match = TEXT.exec(line)
        expect(match, line).not.toBeNull()
        const [, time, level, method, template, status, duration, requestId, keyId] = match!
        expect(Number.isNaN(Date.parse(time!))).toBe(false)
        expect(Number(duration)).toBeGreaterThanOrEqual(0)
        return { level, method, template, status: Number(status), requestId, keyId }
      })
      expect(parsed.slice(1)).toEqual([
        {
          level: "info",
          method: "GET",
          template: "/api/organizations/:organization_id/projects/:id/",
          status: 200,
          requestId: project.requestId,
          keyId: tenant.keyId
        },
        {
          level: "warn",
          method: "GET",
          template: "/api/projects/:project_id/feature_flags/:id/",
          status: 404,
          requestId: flag.requestId,
          keyId: tenant.keyId
        },
        // Unauthenticated: no key id.
        { level: "warn", method: "GET", template: "/api/projects/", status: 401, requestId: anonymous.requestId, keyId: undefined }
      ])
    } finally {
      await stop(server)
    }
  })

  it("is one JSON object per line with HEDGEROW_LOG_FORMAT=json, and never holds a key, an Authorization header or a body", async () => {
    const { server, url } = await serve({ HEDGEROW_LOG_FORMAT: "json" })
    try {
      const flags = `${url}/api/projects/${tenant.project}/feature_flags/`
      const json = { "content-type": "application/json" }
      // The key in a body, as a flag's name and key; then the flag by its id.
      const created = await call(flags, {
        key: tenant.key,
        method: "POST",
        headers: json,
        body: JSON.stringify({ key: `leak-${tenant.key.slice(4, 20)}`, name: tenant.key })
      })
      expect(created.status).toBe(201)
      const flagId = JSON.parse(created.body).id as number
      const calls = {
        created,
        flag: await call(`${flags}${flagId}/`, { key: tenant.key }),
        patched: await call(`${flags}${flagId}/`, {
          key: tenant.key,
          method: "PATCH",
          headers: json,
          body: JSON.stringify({ name: `renamed ${tenant.key}` })
        }),
        invalidKey: await call(flags, { key: INVALID_KEY }),
        inQuery: await call(`${flags}?personal_api_key=${tenant.key}&search=${tenant.key}`),
        inQueryWithKey: await call(`${flags}?personal_api_key=${tenant.key}`, { key: tenant.key }),
        inUnknownPath: await call(`${url}/api/${tenant.key}/`, { key: tenant.key }),
        wrongMethod: await call(`${flags}${flagId}/`, { key: tenant.key, method: "DELETE" }),
        unknownFlag: await call(`${flags}999999/`, { key: tenant.key })
      }
      expect(Object.values(calls).map((c) => c.status)).toEqual([201, 200, 200, 401, 401, 200, 404, 405, 404])
      await logged(server, calls.unknownFlag.requestId)

      const entries = lines(logOf(server)).map((line) => JSON.parse(line))
      expect(entries).toHaveLength(Object.keys(calls).length)
      for (const entry of entries) {
        expect(Object.keys(entry)).toEqual(
          ["time", "level", "method", "path", "status", "duration_ms", "request_id", ...(entry.key_id === undefined ? [] : ["key_id"])]
        )
        expect(Number.isNaN(Date.parse(entry.time))).toBe(false)
        expect(entry.duration_ms).toBeGreaterThanOrEqual(0)
      }
      const byId = new Map(entries.map((entry) => [entry.request_id, entry]))
      const entryOf = (c: Call) => {
        const { time: _time, duration_ms: _duration, request_id: _id, ...rest } = byId.get(c.requestId)
        return rest
      }
      const withKey = { key_id: tenant.keyId }
      expect(entryOf(calls.created)).toEqual(
        { level: "info", method: "POST", path: "/api/projects/:project_id/feature_flags/", status: 201, ...withKey }
      )
      expect(entryOf(calls.flag)).toEqual(
        { level: "info", method: "GET", path: "/api/projects/:project_id/feature_flags/:id/", status: 200, ...withKey }
      )
      expect(entryOf(calls.patched)).toEqual(
        { level: "info", method: "PATCH", path: "/api/projects/:project_id/feature_flags/:id/", status: 200, ...withKey }
      )
      expect(entryOf(calls.invalidKey)).toEqual(
        { level: "warn", method: "GET", path: "/api/projects/:project_id/feature_flags/", status: 401 }
      )
      expect(entryOf(calls.inQuery)).toEqual(
        { level: "warn", method: "GET", path: "/api/projects/:project_id/feature_flags/", status: 401 }
      )
      expect(entryOf(calls.inQueryWithKey)).toEqual(
        { level: "info", method: "GET", path: "/api/projects/:project_id/feature_flags/", status: 200, ...withKey }
      )
      // A path no route serves is logged by a marker, never as sent.
      expect(entryOf(calls.inUnknownPath)).toEqual({ level: "warn", method: "GET", path: "<unmatched>", status: 404 })
      expect(entryOf(calls.wrongMethod)).toEqual(
        { level: "warn", method: "DELETE", path: "/api/projects/:project_id/feature_flags/:id/", status: 405, ...withKey }
      )

      const output = server.output()
      for (const secret of [tenant.key, tenant.key.slice(4), INVALID_KEY, "Bearer", "authorization", "renamed"]) {
        expect(output).not.toContain(secret)
      }
      // Paths are logged as templates, never with the flag's id (the banner's URLs end in the port and a slash).
      expect(output).not.toContain(`/feature_flags/${flagId}/`)
    } finally {
      await stop(server)
    }
  })

  it("HEDGEROW_LOG_LEVEL=warn logs only the requests answered 4xx or 5xx", async () => {
    const { server, url } = await serve({ HEDGEROW_LOG_LEVEL: "warn" })
    try {
      const fine = await call(`${url}/api/projects/`, { key: tenant.key })
      const refused = await call(`${url}/api/projects/`)
      expect([fine.status, refused.status]).toEqual([200, 401])
      await logged(server, refused.requestId)
      const entries = lines(logOf(server))
      expect(entries).toHaveLength(1)
      expect(entries[0]).toContain(refused.requestId)
    } finally {
      await stop(server)
    }
  })

  it("HEDGEROW_LOG_LEVEL=error leaves out 4xx, and none writes nothing at all after the banner", async () => {
    for (const level of ["error", "none"]) {
      const { server, url } = await serve({ HEDGEROW_LOG_LEVEL: level })
      try {
        expect((await call(`${url}/api/projects/`, { key: tenant.key })).status).toBe(200)
        expect((await call(`${url}/api/projects/`)).status).toBe(401)
        expect((await call(`${url}/nowhere/`)).status).toBe(404)
        // Lines go out at the end of the server's turn; a moment later nothing has come.
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(logOf(server)).toBe("")
      } finally {
        await stop(server)
      }
    }
  })

  it("refuses to start, with one error line and exit 1, on a level or format it does not know", async () => {
    for (const [name, value, expected] of [
      ["HEDGEROW_LOG_LEVEL", "verbose", `error: HEDGEROW_LOG_LEVEL must be one of info, warn, error, none, got "verbose"`],
      ["HEDGEROW_LOG_FORMAT", "xml", `error: HEDGEROW_LOG_FORMAT must be one of text, json, got "xml"`]
    ] as const) {
      const server = startServe({ HEDGEROW_DATA_DIR: dataDir, [name]: value })
      expect(await server.exited).toBe(1)
      expect(lines(server.output())).toEqual([expected])
    }
  })
})
