import { Bootstrap, systemActor, totpCode, UserService } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { paced } from "../../../packages/core/test/machine-pace.ts"
import { HedgerowServer } from "../src/index.ts"

const SITE = "https://hedgerow.example.com"
const OWNER = "owner@example.com"
const PASSWORD = "owner's long password"
const STEP_MS = 30_000

/** PostHog's envelope of a 400 on the whole body. */
const invalid = (code: string, detail: string) => ({ type: "validation_error", code, detail, attr: null })

/**
 * The whole two-factor flow over real HTTP on an https site: setup with a code computed here from the
 * secret, the password log-in that then answers 401, the code that finishes it, backup codes, and
 * turning it off; the store's clock is moved by SQL where a rule waits.
 */
describe("two-factor authentication over HTTP", () => {
  const written: Array<string> = []
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let key = ""

  beforeAll(async () => {
    const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_SITE_URL: SITE } }), { asPrimary: true })
    runtime = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: (text) => void written.push(text) }
    }).pipe(Layer.provide(config)))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    key = (await runtime.runPromise(Bootstrap.use((b) => b.run({ email: OWNER })))).personal_api_key
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
  })
  afterAll(() => runtime.dispose())

  const sql = (run: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run))

  /** A browser: the cookies answers set, sent back, and the CSRF token echoed on writes. */
  class Browser {
    cookies = new Map<string, string>()
    async call(method: string, path: string, body?: unknown): Promise<Response> {
      const csrf = this.cookies.get("posthog_csrftoken")
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
          ...(csrf === undefined ? {} : { "x-csrftoken": csrf }),
          origin: SITE
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(";")
        const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)]
        if (/Max-Age=0/.test(cookie)) this.cookies.delete(name)
        else this.cookies.set(name, value)
      }
      return response
    }
  }
  const setCookie = (response: Response, name: string) => response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  const reply = async (response: Response) => ({ status: response.status, body: await response.json() })

  let secret = ""

  it("sets up an app: a secret shown once, its first code turns it on, and the status says so", async () => {
    const browser = new Browser()
    expect((await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(200)
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_validate/", { token: "123456" }))).toEqual({
      status: 400,
      body: invalid("setup_expired", "2FA setup session expired. Please start setup again.")
    })
    const started = await reply(await browser.call("GET", "/api/users/@me/two_factor_start_setup/"))
    expect(started.status).toBe(200)
    secret = started.body.secret
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(started.body).toEqual({
      success: true,
      secret,
      otpauth_uri: `otpauth://totp/Hedgerow:owner%40example.com?secret=${secret}&issuer=Hedgerow&algorithm=SHA1&digits=6&period=30`
    })
    const wrong = String((Number(totpCode(secret, Date.now())) + 1) % 1_000_000).padStart(6, "0")
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_validate/", { token: wrong }))).toEqual({
      status: 400,
      body: invalid("token_invalid", "Token is not valid")
    })
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_validate/", { token: totpCode(secret, Date.now()) }))).toEqual({
      status: 200,
      body: { success: true }
    })
    expect(await reply(await browser.call("GET", "/api/users/@me/two_factor_status/"))).toEqual({
      status: 200,
      body: { is_enabled: true, backup_codes: [], backup_codes_remaining: 0, method: "TOTP" }
    })
    // The setup is used up: validating again needs a new start.
    expect((await reply(await browser.call("POST", "/api/users/@me/two_factor_validate/", { token: totpCode(secret, Date.now()) }))).body.code)
      .toBe("setup_expired")
    // The secret is stored for use, and never answered again.
    const status = await (await browser.call("GET", "/api/users/@me/two_factor_status/")).text()
    expect(status).not.toContain(secret)
  })

  it("asks a password log-in for the code, opens no session, then takes the code once and opens it", async () => {
    const browser = new Browser()
    const first = await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })
    expect(await reply(first)).toEqual({
      status: 401,
      body: { type: "authentication_error", code: "2fa_required", detail: "2FA is required.", attr: null }
    })
    expect(setCookie(first, "sessionid")).toBeUndefined()
    const pending = setCookie(first, "hedgerow_2fa_login")!
    expect(pending).toMatch(/^hedgerow_2fa_login=[0-9A-Za-z]{40}; Max-Age=600; .*Path=\/; .*HttpOnly; Secure; SameSite=Lax$/)
    // Only the cookie's hash is stored.
    const value = pending.split(";")[0]!.split("=")[1]!
    const stored = await sql((s) => s`SELECT secret_hash FROM two_factor_logins`) as ReadonlyArray<{ secret_hash: string }>
    expect(stored.map((row) => row.secret_hash).join()).not.toContain(value)
    expect((await browser.call("GET", "/api/users/@me/")).status).toBe(401)

    // The code setup took is used up; so, for a moment, is the right one after a failure.
    const now = Date.now()
    expect(await reply(await browser.call("POST", "/api/login/token/", { token: totpCode(secret, now - STEP_MS) }))).toEqual({
      status: 400,
      body: invalid("2fa_invalid", "Invalid authentication code")
    })
    expect(await reply(await browser.call("POST", "/api/login/token/", { token: totpCode(secret, now + STEP_MS) }))).toEqual({
      status: 400,
      body: invalid("2fa_too_many_attempts", "Too many attempts.")
    })
    await sql((s) => s`UPDATE two_factor_devices SET failed_at = failed_at - interval '2 seconds'`)
    const done = await browser.call("POST", "/api/login/token/", { token: totpCode(secret, now + STEP_MS) })
    expect(await reply(done)).toEqual({ status: 200, body: { success: true } })
    expect(setCookie(done, "sessionid")).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)
    expect(setCookie(done, "hedgerow_2fa_login")).toMatch(/Max-Age=0/)
    const remember = done.headers.getSetCookie().find((cookie) => cookie.startsWith("remember-cookie_"))!
    expect(remember).toMatch(/^remember-cookie_[0-9a-f-]{36}=[0-9A-Za-z]{40}; Max-Age=2592000; .*Path=\/; .*HttpOnly; Secure; SameSite=Lax$/)
    const remembered = await sql((s) => s`SELECT secret_hash FROM two_factor_remembered`) as ReadonlyArray<{ secret_hash: string }>
    expect(remembered).toHaveLength(1)
    expect(remembered[0]!.secret_hash).toMatch(/^sha256\$[0-9a-f]{64}$/)
    expect(remember).not.toContain(remembered[0]!.secret_hash.slice(7))
    expect((await browser.call("GET", "/api/users/@me/")).status).toBe(200)

    // The waiting log-in is gone, so its cookie finishes nothing more.
    const again = new Browser()
    again.cookies.set("hedgerow_2fa_login", value)
    expect(await reply(await again.call("POST", "/api/login/token/", { token: totpCode(secret, now + 2 * STEP_MS) }))).toEqual({
      status: 400,
      body: invalid("2fa_expired", "Login attempt has expired. Re-enter username/password.")
    })
  })

  it("takes each backup code once, and new codes replace the old", async () => {
    const owner = new Browser()
    expect((await owner.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    await sql((s) => s`UPDATE two_factor_devices SET last_step = NULL, failed_at = NULL, failure_count = 0`)
    expect((await owner.call("POST", "/api/login/token/", { token: totpCode(secret, Date.now()) })).status).toBe(200)
    const first = await reply(await owner.call("POST", "/api/users/@me/two_factor_backup_codes/"))
    expect(first.status).toBe(200)
    expect(first.body.backup_codes).toHaveLength(5)
    for (const code of first.body.backup_codes) expect(code).toMatch(/^[a-z2-7]{8}$/)
    const second = (await reply(await owner.call("POST", "/api/users/@me/two_factor_backup_codes/"))).body.backup_codes as Array<string>
    expect((await reply(await owner.call("GET", "/api/users/@me/two_factor_status/"))).body.backup_codes_remaining).toBe(5)
    const hashes = await sql((s) => s`SELECT code_hash FROM two_factor_backup_codes`) as ReadonlyArray<{ code_hash: string }>
    for (const code of second) expect(hashes.map((row) => row.code_hash).join()).not.toContain(code)

    const browser = new Browser()
    expect((await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    expect((await reply(await browser.call("POST", "/api/login/token/", { token: first.body.backup_codes[0] }))).body.code).toBe("2fa_invalid")
    await sql((s) => s`UPDATE two_factor_devices SET failed_at = NULL`)
    expect((await browser.call("POST", "/api/login/token/", { token: second[0]!.toUpperCase() })).status).toBe(200)
    expect((await reply(await browser.call("GET", "/api/users/@me/two_factor_status/"))).body.backup_codes_remaining).toBe(4)

    const later = new Browser()
    expect((await later.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    expect((await reply(await later.call("POST", "/api/login/token/", { token: second[0] }))).body.code).toBe("2fa_invalid")
  })

  it("lets a waiting log-in expire after ten minutes", async () => {
    const browser = new Browser()
    expect((await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    await sql((s) => s`UPDATE two_factor_logins SET expires_at = now() - interval '1 second'`)
    await sql((s) => s`UPDATE two_factor_devices SET last_step = NULL, failed_at = NULL, failure_count = 0`)
    expect(await reply(await browser.call("POST", "/api/login/token/", { token: totpCode(secret, Date.now()) }))).toEqual({
      status: 400,
      body: invalid("2fa_expired", "Login attempt has expired. Re-enter username/password.")
    })
    expect(await reply(await new Browser().call("POST", "/api/login/token/", { token: "123456" }))).toEqual({
      status: 400,
      body: invalid("2fa_expired", "Login attempt has expired. Re-enter username/password.")
    })
  })

  it("refuses a token of nearly a megabyte as a wrong code, without holding the event loop", async () => {
    const browser = new Browser()
    expect((await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    await sql((s) => s`UPDATE two_factor_devices SET failed_at = NULL, failure_count = 0`)
    // The thread's CPU over the whole request bounds the longest time it held the event loop, and unlike
    // the loop's delays it does not count the turns other processes take on a busy machine.
    const before = process.threadCpuUsage()
    const answer = await reply(await browser.call("POST", "/api/login/token/", { token: `${"7".repeat(999_000)}a` }))
    const used = process.threadCpuUsage(before)
    expect(answer).toEqual({ status: 400, body: invalid("2fa_invalid", "Invalid authentication code") })
    expect((used.user + used.system) / 1000).toBeLessThan(paced(100))
  })

  it("keeps a personal API key to reading the status, and asks a recent log-in to turn it off", async () => {
    const byKey = (method: string, path: string) => fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}` } })
    expect(await reply(await byKey("GET", "/api/users/@me/two_factor_status/"))).toEqual({
      status: 200,
      body: { is_enabled: true, backup_codes: [], backup_codes_remaining: 4, method: "TOTP" }
    })
    const refused = {
      status: 403,
      body: {
        type: "authentication_error",
        code: "permission_denied",
        detail: "Two-factor authentication can only be managed from a logged-in session, not with a personal API key.",
        attr: null
      }
    }
    for (const [method, action] of [["GET", "start_setup"], ["POST", "backup_codes"], ["POST", "disable"]] as const) {
      expect(await reply(await byKey(method, `/api/users/@me/two_factor_${action}/`))).toEqual(refused)
    }

    const browser = new Browser()
    expect((await browser.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    await sql((s) => s`UPDATE two_factor_devices SET last_step = NULL, failed_at = NULL, failure_count = 0`)
    expect((await browser.call("POST", "/api/login/token/", { token: totpCode(secret, Date.now()) })).status).toBe(200)
    await sql((s) => s`UPDATE sessions SET created_at = now() - interval '3 hours'`)
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_disable/"))).toEqual({
      status: 403,
      body: { type: "authentication_error", code: "permission_denied", detail: "This action requires you to be recently authenticated.", attr: null }
    })
    await sql((s) => s`UPDATE sessions SET created_at = now()`)
    // A log-in waiting for its code when the app is turned off finishes nothing.
    const waiting = new Browser()
    expect((await waiting.call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(401)
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_disable/"))).toEqual({ status: 200, body: { success: true } })
    expect(await reply(await browser.call("GET", "/api/users/@me/two_factor_status/"))).toEqual({
      status: 200,
      body: { is_enabled: false, backup_codes: [], backup_codes_remaining: 0, method: null }
    })
    expect((await reply(await waiting.call("POST", "/api/login/token/", { token: totpCode(secret, Date.now()) }))).body.code).toBe("2fa_expired")
    const counts = await sql((s) => s`SELECT (SELECT count(*) FROM two_factor_devices)::int AS devices,
      (SELECT count(*) FROM two_factor_backup_codes)::int AS codes, (SELECT count(*) FROM two_factor_logins)::int AS logins,
      (SELECT count(*) FROM two_factor_remembered)::int AS remembered`)
    expect(counts).toEqual([{ devices: 0, codes: 0, logins: 0, remembered: 0 }])
    expect((await new Browser().call("POST", "/api/login/", { email: OWNER, password: PASSWORD })).status).toBe(200)
    expect(await reply(await browser.call("POST", "/api/users/@me/two_factor_backup_codes/"))).toEqual({
      status: 400,
      body: invalid("2fa_not_enabled", "2FA must be enabled first")
    })
  })

  it("tells the user by e-mail when it was turned on, when a backup code logged in, and when it was turned off", async () => {
    const mails = await sql((s) => s`SELECT recipient, subject, body, kind FROM email_outbox ORDER BY created_at, id`) as ReadonlyArray<
      { recipient: string; subject: string; body: string; kind: string }
    >
    expect(mails.map((mail) => [mail.kind, mail.recipient, mail.subject])).toEqual([
      ["two_factor_enabled", OWNER, "Two-factor authentication is on for your Hedgerow account"],
      ["two_factor_backup_code_used", OWNER, "A backup code was used to log in to your Hedgerow account"],
      ["two_factor_disabled", OWNER, "Two-factor authentication is off for your Hedgerow account"]
    ])
    for (const mail of mails) {
      expect(mail.body).toContain(`If this was not you, change your password at once, and check your two-factor authentication, at ${SITE}`)
      expect(mail.body).not.toContain(secret)
    }
  })

  it("never writes a secret, a code, the waiting log-in's cookie or a remembered browser's to a log line", async () => {
    await new Promise((resolve) => setImmediate(resolve))
    const log = written.join("")
    expect(log).toContain("/api/login/token/")
    expect(log).not.toContain(secret)
    expect(log).not.toContain("hedgerow_2fa_login=")
    expect(log).not.toContain("remember-cookie_")
  })
})
