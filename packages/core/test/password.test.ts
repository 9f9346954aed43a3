import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { csrfFailure } from "../src/sessions/csrf.ts"
import type { SessionRequest } from "../src/sessions/request.ts"
import { maskEmail } from "../src/signup/model.ts"
import { INSECURE_FAST_SCRYPT, NewPassword, OWASP_SCRYPT, passwordHasher } from "../src/users/password.ts"

const { hash: hashPassword, verify: verifyPassword } = passwordHasher(OWASP_SCRYPT)

describe("password hashes", () => {
  it.effect("are scrypt with their parameters and a salt of their own; only the password verifies", () =>
    Effect.gen(function*() {
      const first = yield* hashPassword("correct horse battery")
      const second = yield* hashPassword("correct horse battery")
      assert.match(first, /^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
      assert.notStrictEqual(first, second, "a salt per password")
      assert.isTrue(yield* verifyPassword("correct horse battery", first))
      assert.isFalse(yield* verifyPassword("correct horse batterY", first))
      assert.isFalse(yield* verifyPassword("", first))
      // No stored password never matches, not even the dummy's own.
      assert.isFalse(yield* verifyPassword("", null))
    }))

  it.effect("take as long to refuse a user without a password as a wrong one", () =>
    Effect.gen(function*() {
      const stored = yield* hashPassword("correct horse battery")
      // The quickest of three runs each, so that a busy machine slows neither side alone.
      const time = (effect: Effect.Effect<boolean>) =>
        Effect.gen(function*() {
          let quickest = Infinity
          for (let i = 0; i < 3; i++) {
            const start = performance.now()
            yield* effect
            quickest = Math.min(quickest, performance.now() - start)
          }
          return quickest
        })
      const wrong = yield* time(verifyPassword("wrong", stored))
      const none = yield* time(verifyPassword("wrong", null))
      // Both run the full scrypt; a skipped hash would be three orders of magnitude faster.
      assert.isAbove(none, wrong / 10)
      assert.isAbove(wrong, none / 10)
    }))

  it.effect("made with the test suites' fast parameters name them, and either kind verifies whatever the hasher's parameters", () =>
    Effect.gen(function*() {
      const fast = passwordHasher(INSECURE_FAST_SCRYPT)
      const weak = yield* fast.hash("correct horse battery")
      assert.match(weak, /^scrypt\$1024\$8\$1\$/)
      const strong = yield* hashPassword("correct horse battery")
      assert.isTrue(yield* verifyPassword("correct horse battery", weak))
      assert.isTrue(yield* fast.verify("correct horse battery", strong))
      assert.isFalse(yield* fast.verify("correct horse batterY", strong))
      assert.isFalse(yield* fast.verify("", null))
    }))

  it.effect("stored texts that are no hash of ours match no password: an empty or short hash, a short salt, a cost past OWASP's", () =>
    Effect.gen(function*() {
      const [scheme, n, r, p, salt, hash] = (yield* hashPassword("correct horse battery")).split("$")
      const forged = [
        [scheme, n, r, p, salt, ""],
        [scheme, n, r, p, salt, hash!.slice(0, 20)],
        [scheme, n, r, p, "", hash],
        [scheme, 2 ** 20, r, p, salt, hash],
        [scheme, 3000, r, p, salt, hash],
        [scheme, n, 64, p, salt, hash],
        [scheme, n, r, p, salt, hash, "more"]
      ].map((parts) => parts.join("$"))
      for (const stored of forged) assert.isFalse(yield* verifyPassword("correct horse battery", stored), stored)
    }))

  it.effect("are outdated where their parameters are not the hasher's", () =>
    Effect.gen(function*() {
      const strong = yield* hashPassword("correct horse battery")
      const fast = passwordHasher(INSECURE_FAST_SCRYPT)
      assert.isFalse(passwordHasher(OWASP_SCRYPT).outdated(strong))
      assert.isTrue(fast.outdated(strong))
      assert.isTrue(passwordHasher(OWASP_SCRYPT).outdated(yield* fast.hash("correct horse battery")))
      // What is no hash of ours is left alone: it verifies nothing, so it is never rehashed.
      assert.isFalse(fast.outdated("scrypt$x"))
    }))

  it("follow Django's length rule, counted in code points, after DRF's trimming", () => {
    const decode = Schema.decodeUnknownSync(NewPassword)
    assert.strictEqual(decode("  eight ch  "), "eight ch")
    assert.throws(() => decode("seven c"))
    assert.strictEqual(decode("🔑🔑🔑🔑🔑🔑🔑🔑"), "🔑🔑🔑🔑🔑🔑🔑🔑")
  })
})

/** A request from no browser: no cookies, no headers. */
const noSession = (method: string): SessionRequest => ({
  method,
  sessionKey: undefined,
  csrfCookie: undefined,
  csrfHeader: undefined,
  origin: undefined,
  ownOrigin: undefined,
  clientAddress: "test"
})

describe("CSRF, as Django checks it on a session's writes", () => {
  const token = "a".repeat(32)
  const request = { ...noSession("POST"), csrfCookie: token, csrfHeader: token, ownOrigin: "http://127.0.0.1:8000" }
  it("passes reads, and writes whose header echoes the cookie from this site", () => {
    assert.isUndefined(csrfFailure({ ...noSession("GET") }, undefined))
    assert.isUndefined(csrfFailure(request, undefined))
    assert.isUndefined(csrfFailure({ ...request, origin: "http://127.0.0.1:8000" }, undefined))
    assert.isUndefined(csrfFailure({ ...request, origin: "https://hedgerow.example.com" }, "https://hedgerow.example.com"))
  })
  it("names what is wrong in Django's words", () => {
    assert.strictEqual(csrfFailure({ ...request, origin: "null" }, undefined), "Origin checking failed - null does not match any trusted origins.")
    assert.strictEqual(csrfFailure({ ...request, csrfCookie: undefined }, undefined), "CSRF cookie not set.")
    assert.strictEqual(csrfFailure({ ...request, csrfCookie: "x" }, undefined), "CSRF cookie has incorrect length.")
    assert.strictEqual(csrfFailure({ ...request, csrfHeader: undefined }, undefined), "CSRF token missing.")
    assert.strictEqual(
      csrfFailure({ ...request, csrfHeader: "!".repeat(32) }, undefined),
      "CSRF token from the 'X-Csrftoken' HTTP header has invalid characters."
    )
    assert.strictEqual(
      csrfFailure({ ...request, csrfHeader: "b".repeat(32) }, undefined),
      "CSRF token from the 'X-Csrftoken' HTTP header incorrect."
    )
  })
})

describe("an invite's masked address", () => {
  it("is PostHog's: first and last letter of the name, one star for each one between", () => {
    assert.strictEqual(maskEmail("testemail@posthog.com"), "t*******l@posthog.com")
    assert.strictEqual(maskEmail("ab@x.io"), "ab@x.io")
    assert.strictEqual(maskEmail("a@x.io"), "*@x.io")
  })
})
