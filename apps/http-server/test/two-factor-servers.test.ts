import { Bootstrap, systemActor, totpCode, UserService } from "@hedgerow/core"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

const OWNER = "owner@example.com"
const PASSWORD = "owner's long password"
/** Guesses sent at once, alternating between the two servers. */
const GUESSES = 12

/** The cookies an answer sets, as a `cookie` header's pairs, by name. */
const cookiesOf = (response: Response) =>
  new Map(response.headers.getSetCookie().map((cookie) => {
    const pair = cookie.split(";")[0]!
    return [pair.slice(0, pair.indexOf("=")), pair] as const
  }))

/**
 * Two servers on one PostgreSQL database take guesses at one waiting log-in at the same moment: the
 * failures are counted in the database, under a lock on the user's app, so the two together check no
 * more codes than one would.
 */
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("two-factor guesses across two servers on one PostgreSQL database", () => {
    let database: { url: string; drop: () => Promise<void> }
    const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
    const urls: Array<string> = []

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_2fa")
      for (let i = 0; i < 2; i++) {
        const runtime = ManagedRuntime.make(HedgerowServer.layer({
          port: 0,
          host: "127.0.0.1",
          store: { databaseUrl: database.url },
          log: { level: "error", format: "json", sink: () => {} }
        }))
        runtimes.push(runtime)
        urls.push(await runtime.runPromise(HedgerowServer.baseUrl))
      }
      await runtimes[0]!.runPromise(Bootstrap.use((b) => b.run({ email: OWNER })))
      await runtimes[0]!.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
    }, 60_000)
    afterAll(async () => {
      for (const runtime of runtimes) await runtime.dispose()
      await database?.drop()
    })

    const post = (url: string, path: string, body: unknown, cookie = "", csrf = "") =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, ...(csrf === "" ? {} : { "x-csrftoken": csrf }) },
        body: JSON.stringify(body)
      })

    it("lets one guess through to be checked, and refuses the others until the pause has passed", async () => {
      const [a, b] = urls as [string, string]
      const loggedIn = cookiesOf(await post(a, "/api/login/", { email: OWNER, password: PASSWORD }))
      const session = `${loggedIn.get("sessionid")}; ${loggedIn.get("posthog_csrftoken")}`
      const csrf = loggedIn.get("posthog_csrftoken")!.split("=")[1]!
      const started = await (await fetch(`${b}/api/users/@me/two_factor_start_setup/`, { headers: { cookie: session } })).json() as { secret: string }
      // Started on one server, finished on the other: the setup is held in the database.
      expect((await post(a, "/api/users/@me/two_factor_validate/", { token: totpCode(started.secret, Date.now()) }, session, csrf)).status)
        .toBe(200)

      const waiting = await post(b, "/api/login/", { email: OWNER, password: PASSWORD })
      expect(waiting.status).toBe(401)
      const pending = cookiesOf(waiting).get("hedgerow_2fa_login")!
      const wrong = String((Number(totpCode(started.secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0")
      const answers = await Promise.all(
        Array.from({ length: GUESSES }, (_, i) => post(urls[i % 2]!, "/api/login/token/", { token: wrong }, pending))
      )
      const codes = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { code: string }).code))
      expect(codes.filter((code) => code === "2fa_invalid")).toHaveLength(1)
      expect(codes.filter((code) => code === "2fa_too_many_attempts")).toHaveLength(GUESSES - 1)
      const [device] = await runtimes[1]!.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT failure_count FROM two_factor_devices`))
      expect(device).toEqual({ failure_count: 1 })
    }, 60_000)
  })
})
