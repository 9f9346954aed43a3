import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  bodyOf,
  LoginPrecheckService,
  PersonalApiKeyService,
  SessionService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { UserRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { cookieless, enforcingGoogle, withGoogle } from "./support.ts"

let counter = 0
const unique = (prefix: string) => `${prefix}${++counter}-${Date.now()}`

/** A log-in from a client without cookies, as a script would send it. */
const request = cookieless("192.0.2.50")

const PASSWORD = "a long enough secret"

const enforcing = enforcingGoogle(unique)

const login = (email: string, password: string) =>
  SessionService.use((s) => s.login(request, bodyOf({ email, password })))
const loginRefusal = (email: string, password: string) =>
  login(email, password).pipe(Effect.flip, Effect.map((e) => [e._tag, "code" in e ? e.code : undefined, e.detail]))
const hashOf = (email: string) =>
  UserRepository.use((u) => u.findCredentials(email)).pipe(Effect.map((found) => Option.getOrThrow(found).password_hash))

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `passwords under SSO enforcement on ${backend.name}`,
  (it) => {
    it.effect("an OAuth provider is enforced only where the deployment has its client: then log-in and precheck say so", () =>
      Effect.gen(function*() {
        const domain = yield* enforcing
        const email = `ada@${domain}`
        yield* UserService.use((s) => s.create(systemActor, { email }))
        const set = yield* UserService.use((s) => s.setPassword(systemActor, { email, password: PASSWORD }))
        assert.isNull(set.sso_enforcement)
        const precheck = (address: string) => LoginPrecheckService.use((s) => s.precheck(request, bodyOf({ email: address })))
        assert.deepStrictEqual(yield* precheck(email), { sso_enforcement: null, saml_available: false })
        yield* login(email, PASSWORD)

        const enforced = ["ValidationError", "sso_enforced", "You can only login with SSO for this account (google-oauth2)."]
        assert.deepStrictEqual(yield* precheck(email).pipe(withGoogle), { sso_enforcement: "google-oauth2", saml_available: false })
        assert.deepStrictEqual(yield* precheck(`nobody@${domain}`).pipe(withGoogle), { sso_enforcement: "google-oauth2", saml_available: false })
        for (const [who, password] of [[email, PASSWORD], [email, "wrong"], [`nobody@${domain}`, "wrong"]] as const) {
          assert.deepStrictEqual(yield* loginRefusal(who, password).pipe(withGoogle), enforced)
        }
      }))

    it.effect("a password change is refused and writes nothing; the operator's set-password writes it and names the provider", () =>
      Effect.gen(function*() {
        const domain = yield* enforcing
        const email = `grace@${domain}`
        yield* UserService.use((s) => s.create(systemActor, { email }))
        const key = yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"] }))
        const actor = yield* Authentication.use((a) => a.authenticate(key.personal_api_key))
        // The user's unrestricted key may set the first password only while the domain enforces nothing usable.
        const refused = yield* UserService.use((s) => s.updateMe(actor, bodyOf({ password: PASSWORD }))).pipe(withGoogle, Effect.flip)
        assert.deepStrictEqual([refused._tag, "code" in refused ? refused.code : undefined, refused.detail], [
          "ValidationError",
          "sso_enforced",
          "Password change is disabled because SSO login is enforced for this domain."
        ])
        assert.isNull(yield* hashOf(email))

        const set = yield* UserService.use((s) => s.setPassword(systemActor, { email, password: PASSWORD })).pipe(withGoogle)
        assert.strictEqual(set.sso_enforcement, "google-oauth2")
        assert.strictEqual(set.email, email)
        assert.isNotNull(yield* hashOf(email))
        // Log-in with it waits for the enforcement to end; without the provider's client it works now.
        yield* Effect.flip(login(email, PASSWORD).pipe(withGoogle))
        yield* login(email, PASSWORD)
      }))
  }
))
