import { Bootstrap } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

const EMAIL = "owner@example.com"
const PASSWORD = "owner's long password"

/**
 * The suites run with HEDGEROW_INSECURE_FAST_PASSWORD_HASHING on (vitest.shared.ts); here each server
 * reads only the settings given, so the shipped default is seen as a server without the variable has it.
 */
describe("password hashing", () => {
  it.each([
    ["without HEDGEROW_INSECURE_FAST_PASSWORD_HASHING, OWASP's scrypt parameters", {}, /^scrypt\$32768\$8\$3\$/],
    ["with it on, a hundredth of the work", { HEDGEROW_INSECURE_FAST_PASSWORD_HASHING: "true" }, /^scrypt\$1024\$8\$1\$/]
  ] as const)("%s: the stored hash names them and the password logs in", async (_, env, stored) => {
    const runtime = ManagedRuntime.make(
      HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))
    )
    try {
      const url = await runtime.runPromise(HedgerowServer.baseUrl)
      const { personal_api_key } = await runtime.runPromise(Bootstrap.use((b) => b.run({ email: EMAIL })))
      const set = await fetch(`${url}/api/users/@me/`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${personal_api_key}`, "content-type": "application/json" },
        body: JSON.stringify({ password: PASSWORD })
      })
      expect(set.status).toBe(200)
      const [row] = await runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ password_hash: string }>`SELECT password_hash FROM users WHERE email = ${EMAIL}`)
      )
      expect(row!.password_hash).toMatch(stored)
      const login = (password: string) =>
        fetch(`${url}/api/login/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: EMAIL, password }) })
      expect((await login(PASSWORD)).status).toBe(200)
      expect((await login(`${PASSWORD}!`)).status).toBe(400)
    } finally {
      await runtime.dispose()
    }
  })
})
