import { assert, layer } from "@effect/vitest"
import { bodyOf, SignInLinkService, systemActor, UserService } from "@hedgerow/core"
import { secureValueOf, TwoFactorRepository } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { cookieless, enforcingGoogle, withGoogle } from "./support.ts"

let counter = 0
/** A name no other test of this file uses. */
const unique = (prefix: string) => `${prefix}${++counter}-${Date.now()}`

/** A browser without cookies following a link, from an address of its own (so no lock-out carries over). */
const browser = () => cookieless(unique("address "))

const INVALID = ["ValidationError", "sign_in_link_invalid", "This sign-in link has been used, has expired or is not valid."]

const newUser = Effect.gen(function*() {
  const email = `${unique("link")}@example.com`
  const user = yield* UserService.use((s) => s.create(systemActor, { email }))
  return { email, id: user.id }
})
const issue = (email: string) => SignInLinkService.use((s) => s.issue(systemActor, { email }))
const redeem = (token: string, request = browser()) => SignInLinkService.use((s) => s.redeem(request, bodyOf({ token })))
const refusal = <A, R>(effect: Effect.Effect<A, { _tag: string; code?: string; detail: string }, R>) =>
  effect.pipe(Effect.flip, Effect.map((e) => [e._tag, e.code, e.detail]))
const sessionsOf = (user: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM sessions WHERE user_id = ${user}`
    return row!.n
  })

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `one-time sign-in links on ${backend.name}`,
  (it) => {
    it.effect("stores only the secret's hash, for 24 hours; a use opens a session and spends the link", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { email, id } = yield* newUser
        const issued = yield* issue(email)
        assert.match(issued.token, /^[0-9A-Za-z]{43}$/)
        assert.deepStrictEqual([issued.email, issued.sso_enforcement], [email, null])
        const rows = yield* sql<Record<string, unknown>>`SELECT * FROM sign_in_links WHERE user_id = ${id}`
        assert.notInclude(JSON.stringify(rows), issued.token)
        assert.strictEqual(rows[0]!["secret_hash"], secureValueOf(issued.token))
        const [age] = yield* sql<{ hours: number }>`
          SELECT extract(epoch FROM expires_at - now())::float / 3600 AS hours FROM sign_in_links WHERE user_id = ${id}`
        assert.approximately(Number(age!.hours), 24, 0.05)

        const loggedIn = yield* redeem(issued.token)
        assert.isFalse("_tag" in loggedIn)
        const cookies = "cookies" in loggedIn ? loggedIn.cookies.map((cookie) => cookie.name) : []
        assert.deepStrictEqual(cookies, ["sessionid", "posthog_csrftoken"])
        assert.strictEqual(yield* sessionsOf(id), 1)
        const [login] = yield* sql<{ last_login: unknown }>`SELECT last_login FROM users WHERE id = ${id}`
        assert.isNotNull(login!.last_login)
        assert.lengthOf(yield* sql`SELECT 1 FROM sign_in_links WHERE user_id = ${id}`, 0)
        assert.deepStrictEqual(yield* refusal(redeem(issued.token)), INVALID)
        assert.strictEqual(yield* sessionsOf(id), 1)
      }))

    it.effect("of two uses at the same moment, one logs in and the other finds the link spent", () =>
      Effect.gen(function*() {
        const { email, id } = yield* newUser
        const { token } = yield* issue(email)
        const both = yield* Effect.all([0, 1].map(() => Effect.result(redeem(token))), { concurrency: 2 })
        const taken = both.filter((result) => result._tag === "Success")
        const refused = both.filter((result) => result._tag === "Failure")
        assert.lengthOf(taken, 1)
        assert.lengthOf(refused, 1)
        assert.strictEqual((refused[0] as { failure: { code: string } }).failure.code, "sign_in_link_invalid")
        assert.strictEqual(yield* sessionsOf(id), 1)
      }))

    it.effect("an expired link is refused, and cleared by the next link made; a new link replaces the user's earlier one", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const expired = yield* newUser
        const { token } = yield* issue(expired.email)
        yield* sql`UPDATE sign_in_links SET expires_at = now() - interval '1 second' WHERE user_id = ${expired.id}`
        assert.deepStrictEqual(yield* refusal(redeem(token)), INVALID)
        assert.strictEqual(yield* sessionsOf(expired.id), 0)

        const left = yield* newUser
        yield* issue(left.email)
        yield* sql`UPDATE sign_in_links SET expires_at = now() - interval '1 second' WHERE user_id = ${left.id}`
        const other = yield* newUser
        const first = yield* issue(other.email)
        assert.lengthOf(yield* sql`SELECT 1 FROM sign_in_links WHERE user_id = ${left.id}`, 0)

        const second = yield* issue(other.email)
        assert.lengthOf(yield* sql`SELECT 1 FROM sign_in_links WHERE user_id = ${other.id}`, 1)
        assert.deepStrictEqual(yield* refusal(redeem(first.token)), INVALID)
        yield* redeem(second.token)
        assert.strictEqual(yield* sessionsOf(other.id), 1)
      }))

    it.effect("a malformed, unknown or wrong-shaped secret is refused in the same words, and nothing is looked up for it", () =>
      Effect.gen(function*() {
        for (const token of ["short", "A".repeat(43), `${"A".repeat(42)}!`, "A".repeat(200)]) {
          assert.deepStrictEqual(yield* refusal(redeem(token)), INVALID)
        }
        assert.deepStrictEqual(yield* refusal(redeem("A".repeat(201))), [
          "ValidationError",
          "max_length",
          "Ensure this field has no more than 200 characters."
        ])
      }))

    it.effect("a deactivated user gets no link, and a link made before is refused; only the operator makes links", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { email, id } = yield* newUser
        const { token } = yield* issue(email)
        yield* sql`UPDATE users SET is_active = false WHERE id = ${id}`
        assert.deepStrictEqual(yield* refusal(redeem(token)), INVALID)
        assert.deepStrictEqual(yield* refusal(issue(email)), [
          "ValidationError",
          "inactive",
          `${email} is deactivated: a sign-in link would not let them in.`
        ])
        assert.deepStrictEqual(yield* refusal(issue("nobody@example.com")), [
          "ValidationError",
          "does_not_exist",
          "No user with e-mail nobody@example.com."
        ])
        assert.strictEqual(yield* sessionsOf(id), 0)
      }))

    it.effect("a user with two-factor authentication is asked for the code: the link opens no session, only the code step", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { email, id } = yield* newUser
        yield* TwoFactorRepository.use((t) => t.enable(id, "JBSWY3DPEHPK3PXP", 0))
        const { token } = yield* issue(email)
        const outcome = yield* redeem(token)
        assert.isTrue("_tag" in outcome && outcome._tag === "TwoFactorPending")
        assert.strictEqual("_tag" in outcome ? outcome.failure.code : undefined, "2fa_required")
        assert.strictEqual(yield* sessionsOf(id), 0)
        assert.lengthOf(yield* sql`SELECT 1 FROM two_factor_logins WHERE user_id = ${id}`, 1)
        assert.deepStrictEqual(yield* refusal(redeem(token)), INVALID)
      }))

    it.effect("where the user's domain enforces single sign-on the link is refused as a password is, and the operator is told", () =>
      Effect.gen(function*() {
        const email = `ada@${yield* enforcingGoogle(unique)}`
        const { id } = yield* UserService.use((s) => s.create(systemActor, { email }))
        const issued = yield* issue(email).pipe(withGoogle)
        assert.strictEqual(issued.sso_enforcement, "google-oauth2")
        assert.deepStrictEqual(yield* refusal(redeem(issued.token).pipe(withGoogle)), [
          "ValidationError",
          "sso_enforced",
          "You can only login with SSO for this account (google-oauth2)."
        ])
        assert.strictEqual(yield* sessionsOf(id), 0)
      }))

    it.effect("thirty refused links from one address lock it out for ten minutes, a good link too; other addresses go on", () =>
      Effect.gen(function*() {
        const { email, id } = yield* newUser
        const { token } = yield* issue(email)
        const address = browser()
        for (let i = 0; i < 30; i++) assert.deepStrictEqual(yield* refusal(redeem("A".repeat(43), address)), INVALID)
        assert.deepStrictEqual(yield* refusal(redeem(token, address)), [
          "PermissionDenied",
          "too_many_failed_attempts",
          "Too many failed login attempts. Please try again in 10 minutes."
        ])
        yield* redeem(token)
        assert.strictEqual(yield* sessionsOf(id), 1)
      }))
  }
))
