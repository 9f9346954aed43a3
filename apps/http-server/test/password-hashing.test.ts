import { Bootstrap } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

const EMAIL = "owner@example.com"
const PASSWORD = "owner's long password"
const FAST = { HEDGEROW_INSECURE_FAST_PASSWORD_HASHING: "true" }

/** A server on `store` that reads only the settings in `env`. */
const serverWith = (env: Record<string, string>, store: { readonly dataDir?: string } = {}) =>
  ManagedRuntime.make(
    HedgerowServer.layer({ port: 0, host: "127.0.0.1", store }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))
  )

const storedHash = (runtime: ReturnType<typeof serverWith>) =>
  runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ password_hash: string }>`SELECT password_hash FROM users WHERE email = ${EMAIL}`)
  ).then(([row]) => row!.password_hash)

/** The first password of the key's user, over the API. */
const givePassword = async (url: string, key: string) => {
  const set = await fetch(`${url}/api/users/@me/`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ password: PASSWORD })
  })
  expect(set.status).toBe(200)
}

const logIn = (url: string, password: string) =>
  fetch(`${url}/api/login/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: EMAIL, password }) })

/**
 * The suites run with HEDGEROW_INSECURE_FAST_PASSWORD_HASHING on (vitest.shared.ts); here each server
 * reads only the settings given, so the shipped default is seen as a server without the variable has it.
 */
describe("password hashing", () => {
  it.each([
    ["without HEDGEROW_INSECURE_FAST_PASSWORD_HASHING, OWASP's scrypt parameters", {}, /^scrypt\$32768\$8\$3\$/],
    ["with it on, a hundredth of the work", FAST, /^scrypt\$1024\$8\$1\$/]
  ] as const)("%s: the stored hash names them and the password logs in", async (_, env, stored) => {
    const runtime = serverWith(env)
    try {
      const url = await runtime.runPromise(HedgerowServer.baseUrl)
      const { personal_api_key } = await runtime.runPromise(Bootstrap.use((b) => b.run({ email: EMAIL })))
      await givePassword(url, personal_api_key)
      expect(await storedHash(runtime)).toMatch(stored)
      expect((await logIn(url, PASSWORD)).status).toBe(200)
      expect((await logIn(url, `${PASSWORD}!`)).status).toBe(400)
      // Already at this server's parameters: a log-in leaves the hash as it is.
      const before = await storedHash(runtime)
      expect((await logIn(url, PASSWORD)).status).toBe(200)
      expect(await storedHash(runtime)).toBe(before)
    } finally {
      await runtime.dispose()
    }
  })

  it("a password hashed fast is hashed again at OWASP's parameters by the first log-in on a server without the setting", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-rehash-"))
    try {
      const fast = serverWith(FAST, { dataDir })
      try {
        const url = await fast.runPromise(HedgerowServer.baseUrl)
        const { personal_api_key } = await fast.runPromise(Bootstrap.use((b) => b.run({ email: EMAIL })))
        await givePassword(url, personal_api_key)
        expect(await storedHash(fast)).toMatch(/^scrypt\$1024\$8\$1\$/)
      } finally {
        await fast.dispose()
      }
      const shipped = serverWith({}, { dataDir })
      try {
        const url = await shipped.runPromise(HedgerowServer.baseUrl)
        // A wrong password changes nothing; the right one logs in and leaves the hash at the server's parameters.
        expect((await logIn(url, `${PASSWORD}!`)).status).toBe(400)
        expect(await storedHash(shipped)).toMatch(/^scrypt\$1024\$8\$1\$/)
        expect((await logIn(url, PASSWORD)).status).toBe(200)
        expect(await storedHash(shipped)).toMatch(/^scrypt\$32768\$8\$3\$/)
        expect((await logIn(url, PASSWORD)).status).toBe(200)
      } finally {
        await shipped.dispose()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
