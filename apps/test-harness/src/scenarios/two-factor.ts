import assert from "node:assert/strict"
import { setTimeout as sleep } from "node:timers/promises"
import { totpCode } from "@hedgerow/core"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { BAD_KEY, denied, envelope, expectReply, invalid, missingScope, NOT_AUTHENTICATED, NOT_FOUND, needWorld, type Scenario, withWorld } from "./scenario.ts"
import { Browser, cookiesSet, login, me, newTeammate, SESSION, type Teammate } from "./sessions-support.ts"

const startSetup = { group: "twoFactor", endpoint: "startSetup" } as const
const validate = { group: "twoFactor", endpoint: "validate" } as const
const status = { group: "twoFactor", endpoint: "status" } as const
const backupCodes = { group: "twoFactor", endpoint: "backupCodes" } as const
const disable = { group: "twoFactor", endpoint: "disable" } as const
const token = { group: "twoFactorLogin", endpoint: "token" } as const

/** The cookie that ties a log-in waiting for its code to its browser. */
const PENDING = "hedgerow_2fa_login"
const STEP_MS = 30_000

const TWO_FA_REQUIRED = envelope("authentication_error", "2fa_required", "2FA is required.")
const EXPIRED = invalid(null, "Login attempt has expired. Re-enter username/password.", "2fa_expired")
const INVALID_CODE = invalid(null, "Invalid authentication code", "2fa_invalid")
const TOO_MANY = invalid(null, "Too many attempts.", "2fa_too_many_attempts")
const SESSION_ONLY = denied("Two-factor authentication can only be managed from a logged-in session, not with a personal API key.")
/** A key that no user holds. */
const BAD_KEY_VALUE = "phx_thisKeyDoesNotExistAnywhere0000000000000000"
const OFF = { is_enabled: false, backup_codes: [], backup_codes_remaining: 0, method: null }

/** A code that is not the present one (nor, but by a one-in-a-million chance, a neighbour's). */
const wrongCode = (secret: string) => String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0")

/** A teammate of A with an authenticator app set up over HTTP; their browser stays logged in. */
const withApp = async (target: Target, world: World, prefix: string): Promise<Teammate & { readonly secret: string }> => {
  const teammate = await newTeammate(target, world, prefix)
  const started = await teammate.browser.call(startSetup)
  expectReply(started, 200)
  expectReply(await teammate.browser.call(validate, { body: { token: totpCode(started.body.secret, Date.now()) } }), 200, { success: true })
  return { ...teammate, secret: started.body.secret }
}

export const twoFactorScenarios: ReadonlyArray<Scenario> = [
  withWorld("two-factor setup: a secret shown once, the app's first code turns it on, backup codes come five at a time", async (target, world) => {
    const { browser, email } = await newTeammate(target, world, "setup")
    expectReply(await browser.call(status), 200, OFF)
    assert.equal((await browser.call(me)).body.is_2fa_enabled, false)
    expectReply(
      await browser.call(validate, { body: { token: "123456" } }),
      400,
      invalid(null, "2FA setup session expired. Please start setup again.", "setup_expired")
    )
    expectReply(await browser.call(backupCodes), 400, invalid(null, "2FA must be enabled first", "2fa_not_enabled"))

    const started = await browser.call(startSetup)
    expectReply(started, 200)
    const secret: string = started.body.secret
    assert.match(secret, /^[A-Z2-7]{32}$/)
    assert.deepEqual(started.body, {
      success: true,
      secret,
      otpauth_uri: `otpauth://totp/Hedgerow:${encodeURIComponent(email)}?secret=${secret}&issuer=Hedgerow&algorithm=SHA1&digits=6&period=30`
    })
    expectReply(await browser.call(validate, { body: {} }), 400, invalid("token", "This field is required.", "required"))
    expectReply(await browser.call(validate, { body: { token: " " } }), 400, invalid("token", "This field may not be blank.", "blank"))
    expectReply(await browser.call(validate, { body: { token: 123456 } }), 400, invalid("token", "Not a valid string."))
    expectReply(await browser.call(validate, { body: { token: wrongCode(secret) } }), 400, invalid(null, "Token is not valid", "token_invalid"))
    expectReply(await browser.call(status), 200, OFF)
    expectReply(await browser.call(validate, { body: { token: totpCode(secret, Date.now()) } }), 200, { success: true })
    expectReply(await browser.call(status), 200, { is_enabled: true, backup_codes: [], backup_codes_remaining: 0, method: "TOTP" })
    assert.equal((await browser.call(me)).body.is_2fa_enabled, true)

    const codes = await browser.call(backupCodes)
    expectReply(codes, 200)
    assert.equal(codes.body.backup_codes.length, 5)
    for (const code of codes.body.backup_codes) assert.match(code, /^[a-z2-7]{8}$/)
    expectReply(await browser.call(status), 200, { is_enabled: true, backup_codes: [], backup_codes_remaining: 5, method: "TOTP" })
  }),

  withWorld("two-factor log-in: the password answers 401 2fa_required and no session; the code opens it, once", async (target, world) => {
    const { email, password, secret } = await withApp(target, world, "login-2fa")
    const browser = new Browser(target)
    const first = await browser.call(login, { body: { email, password } })
    expectReply(first, 401, TWO_FA_REQUIRED)
    const cookies = cookiesSet(first)
    assert.equal(cookies[SESSION], undefined, "no session before the code")
    assert.match(cookies[PENDING]!.value, /^[0-9A-Za-z]{40}$/)
    assert.deepEqual(
      { path: cookies[PENDING]!.attributes["path"], httponly: "httponly" in cookies[PENDING]!.attributes, maxAge: cookies[PENDING]!.attributes["max-age"] },
      { path: "/", httponly: true, maxAge: "600" }
    )
    expectReply(await browser.call(me), 401, NOT_AUTHENTICATED)

    expectReply(await browser.call(token, { body: {} }), 400, invalid("token", "This field is required.", "required"))
    expectReply(await browser.call(token, { body: { token: "" } }), 400, invalid("token", "This field may not be blank.", "blank"))
    expectReply(await browser.call(token, { body: { token: ["123456"] } }), 400, invalid("token", "Not a valid string."))
    // The code setup took is used up, and a failure makes even the right code wait a second.
    const now = Date.now()
    expectReply(await browser.call(token, { body: { token: totpCode(secret, now - STEP_MS) } }), 400, INVALID_CODE)
    expectReply(await browser.call(token, { body: { token: totpCode(secret, now + STEP_MS) } }), 400, TOO_MANY)
    await sleep(1100)
    const done = await browser.call(token, { body: { token: totpCode(secret, now + STEP_MS) } })
    expectReply(done, 200, { success: true })
    assert.match(cookiesSet(done)[SESSION]!.value, /^[0-9A-Za-z]{40}$/)
    assert.equal(cookiesSet(done)[PENDING]!.attributes["max-age"], "0")
    expectReply(await browser.call(me), 200)

    // The browser is remembered for thirty days: its next password log-in asks for no code.
    const [rememberName, remember] = Object.entries(cookiesSet(done)).find(([name]) => name.startsWith("remember-cookie_"))!
    assert.match(rememberName, /^remember-cookie_[0-9a-f-]{36}$/)
    assert.match(remember.value, /^[0-9A-Za-z]{40}$/)
    assert.deepEqual(
      { path: remember.attributes["path"], httponly: "httponly" in remember.attributes, maxAge: remember.attributes["max-age"] },
      { path: "/", httponly: true, maxAge: String(30 * 24 * 60 * 60) }
    )
    const relogin = await browser.call(login, { body: { email, password } })
    expectReply(relogin, 200, { success: true })
    assert.match(cookiesSet(relogin)[SESSION]!.value, /^[0-9A-Za-z]{40}$/)
    // A cookie of that name that the server did not set is no remembered browser.
    const forged = await target.call(login, { body: { email, password }, cookies: { [rememberName]: "B".repeat(40) } })
    expectReply(forged, 401, TWO_FA_REQUIRED)

    // A new log-in: the same code is not taken twice.
    const again = new Browser(target)
    expectReply(await again.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
    expectReply(await again.call(token, { body: { token: totpCode(secret, now + STEP_MS) } }), 400, INVALID_CODE)
  }),

  withWorld("two-factor log-in: a backup code opens the session once; another user's code or a missing log-in opens nothing", async (target, world) => {
    const { email, password, browser: owner } = await withApp(target, world, "backup")
    const other = await withApp(target, world, "backup-other")
    const codes = await owner.call(backupCodes)
    expectReply(codes, 200)
    const [code] = codes.body.backup_codes as Array<string>

    const browser = new Browser(target)
    expectReply(await browser.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
    expectReply(await browser.call(token, { body: { token: totpCode(other.secret, Date.now() + STEP_MS) } }), 400, INVALID_CODE)
    await sleep(1100)
    expectReply(await browser.call(token, { body: { token: code } }), 200, { success: true })
    expectReply(await owner.call(status), 200, { is_enabled: true, backup_codes: [], backup_codes_remaining: 4, method: "TOTP" })

    const later = new Browser(target)
    expectReply(await later.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
    expectReply(await later.call(token, { body: { token: code } }), 400, INVALID_CODE)

    // Without the waiting log-in's cookie, or with one that names none, there is nothing to finish.
    expectReply(await target.call(token, { body: { token: code } }), 400, EXPIRED)
    expectReply(await target.call(token, { body: { token: code }, cookies: { [PENDING]: "A".repeat(40) } }), 400, EXPIRED)
  }),

  withWorld("two-factor off: the app, the backup codes, remembered browsers and waiting log-ins go, and the password alone logs in", async (target, world) => {
    const { email, password, browser, secret } = await withApp(target, world, "disable")
    const remembered = new Browser(target)
    expectReply(await remembered.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
    expectReply(await remembered.call(token, { body: { token: totpCode(secret, Date.now() + STEP_MS) } }), 200, { success: true })
    const waiting = new Browser(target)
    expectReply(await waiting.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
    expectReply(await browser.call(disable), 200, { success: true })
    expectReply(await browser.call(status), 200, OFF)
    expectReply(await waiting.call(token, { body: { token: totpCode(secret, Date.now() + STEP_MS) } }), 400, EXPIRED)
    expectReply(await new Browser(target).call(login, { body: { email, password } }), 200, { success: true })
    // Turning it off again changes nothing and says so as PostHog does.
    expectReply(await browser.call(disable), 200, { success: true })

    // Turned on again, with a new secret: the browser remembered before asks for the code again.
    const started = await browser.call(startSetup)
    expectReply(await browser.call(validate, { body: { token: totpCode(started.body.secret, Date.now()) } }), 200, { success: true })
    expectReply(await remembered.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
  }),

  withWorld("two-factor endpoints: 401 without credentials or with a bad key", async (target) => {
    for (const endpoint of [startSetup, validate, status, backupCodes, disable]) {
      const body = endpoint === validate ? { token: "123456" } : undefined
      expectReply(await target.call(endpoint, { body }), 401, NOT_AUTHENTICATED)
      expectReply(await target.call(endpoint, { key: BAD_KEY_VALUE, body }), 401, BAD_KEY)
    }
  }),

  withWorld("two-factor endpoints: 403 for a key without the user scope, for any key where a session is needed, and without CSRF", async (target, world) => {
    expectReply(await target.call(status, { key: world.keys.flagReadA }), 403, missingScope("user:read"))
    expectReply(await target.call(startSetup, { key: world.keys.flagReadA }), 403, missingScope("user:read"))
    for (const endpoint of [validate, backupCodes, disable]) {
      expectReply(await target.call(endpoint, { key: world.keys.flagReadA, body: { token: "123456" } }), 403, missingScope("user:write"))
    }
    expectReply(await target.call(status, { key: world.keys.ownerA }), 200)
    for (const endpoint of [startSetup, validate, backupCodes, disable]) {
      expectReply(await target.call(endpoint, { key: world.keys.ownerA, body: { token: "123456" } }), 403, SESSION_ONLY)
    }
    const { browser } = await newTeammate(target, world, "csrf-2fa")
    for (const endpoint of [validate, backupCodes, disable]) {
      expectReply(await browser.call(endpoint, { body: { token: "123456" } }, { csrf: false }), 403, denied("CSRF Failed: CSRF token missing."))
    }
  }),

  {
    name: "two-factor endpoints answer for the caller only: another user's id in their path is 404",
    needs: ["world", "transport"],
    run: async (context) => {
      const world = needWorld(context)
      assert.ok(context.target.raw, "this scenario needs raw HTTP")
      for (const id of [world.members.member.uuid, "00000000-0000-4000-8000-000000000000"]) {
        const reply = await context.target.raw({
          method: "GET",
          path: `/api/users/${id}/two_factor_status/`,
          headers: { authorization: `Bearer ${world.keys.ownerA}` }
        })
        expectReply(reply, 404, NOT_FOUND)
      }
    }
  }
]
