import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  bodyOf,
  CliAuthService,
  MemberService,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  systemActor,
  type UserActor,
  UserService
} from "@hedgerow/core"
import { randomBase62, secureValueOf } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

let counter = 0
/** A name no other test of this file uses. */
const unique = (prefix: string) => `${prefix}${++counter}-${Date.now()}`

/** A user of an organization of their own with one project, as their own key sees them. */
const person = Effect.gen(function*() {
  const organization = yield* OrganizationService.use((s) => s.create(systemActor, { name: unique("CLI ") }))
  const email = `${unique("cli")}@example.com`
  yield* UserService.use((s) => s.create(systemActor, { email }))
  yield* MemberService.use((s) => s.add(systemActor, organization.id, { email, level: 8 }))
  const project = yield* ProjectService.use((s) => s.create(systemActor, organization.id, bodyOf({ name: "Default" })))
  return { email, project: project.id }
})

/** The user as a browser session sees them: what `authorize` is given. */
const sessionActor = (email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [user] = yield* sql<{ id: number }>`SELECT id FROM users WHERE email = ${email}`
    const key = randomBase62(40)
    yield* sql`INSERT INTO sessions (id, user_id, secret_hash, expires_at)
      VALUES (gen_random_uuid(), ${user!.id}, ${secureValueOf(key)}, now() + interval '1 hour')`
    const found = yield* Authentication.use((a) =>
      a.session({ method: "GET", sessionKey: key, csrfCookie: undefined, csrfHeader: undefined, origin: undefined, ownOrigin: undefined, clientAddress: "test" })
    )
    assert.isTrue(found._tag === "Some")
    return (found as { value: UserActor }).value
  })

const failure = <A, E extends { _tag: string; code?: string; detail: string }, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.flip, Effect.map((e) => [e._tag, e.code, e.detail]))

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `the CLI's browser log-in on ${backend.name}`,
  (it) => {
    it.effect("stores only the codes' hashes; an expired code neither approves nor polls, and is cleared by the next device code", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const grant = yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
        const rows = yield* sql<Record<string, unknown>>`SELECT * FROM cli_auth_requests`
        const text = JSON.stringify(rows)
        assert.notInclude(text, grant.device_code)
        assert.notInclude(text, grant.user_code)
        const [row] = yield* sql<{ id: string }>`
          SELECT id FROM cli_auth_requests WHERE device_code_hash = ${secureValueOf(grant.device_code)}
            AND user_code_hash = ${secureValueOf(grant.user_code)}`
        assert.isDefined(row)

        const { email, project } = yield* person
        const actor = yield* sessionActor(email)
        yield* sql`UPDATE cli_auth_requests SET expires_at = now() - interval '1 second' WHERE id = ${row!.id}`
        assert.deepStrictEqual(
          yield* failure(CliAuthService.use((s) => s.authorize(actor, bodyOf({ user_code: grant.user_code, project_id: project })))),
          ["ValidationError", "invalid_code", "User code not found or expired"]
        )
        assert.deepStrictEqual(
          yield* failure(CliAuthService.use((s) => s.poll(bodyOf({ device_code: grant.device_code })))),
          ["ValidationError", "expired_token", "Device code expired"]
        )
        yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
        assert.lengthOf(yield* sql`SELECT id FROM cli_auth_requests WHERE id = ${row!.id}`, 0)
      }))

    it.effect("an approval stores no key; of two polls at once, one gets the key and the other finds the code spent", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { email, project } = yield* person
        const actor = yield* sessionActor(email)
        const grant = yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
        const keysBefore = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${actor.user.id}`
        const approved = yield* CliAuthService.use((s) => s.authorize(actor, bodyOf({ user_code: grant.user_code, project_id: project })))
        assert.match(approved.label, /^CLI - Default - \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
        const keysApproved = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${actor.user.id}`
        assert.strictEqual(keysApproved[0]!.n, keysBefore[0]!.n)

        const both = yield* Effect.all(
          [0, 1].map(() => CliAuthService.use((s) => s.poll(bodyOf({ device_code: grant.device_code }))).pipe(Effect.result)),
          { concurrency: 2 }
        )
        const taken = both.filter((r) => r._tag === "Success")
        const refused = both.filter((r) => r._tag === "Failure")
        assert.lengthOf(taken, 1)
        assert.lengthOf(refused, 1)
        assert.strictEqual((refused[0] as { failure: { code: string } }).failure.code, "expired_token")
        const keysAfter = yield* sql<{ n: number }>`
          SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${actor.user.id}`
        assert.strictEqual(keysAfter[0]!.n, keysBefore[0]!.n + 1)
        assert.lengthOf(yield* sql`SELECT id FROM cli_auth_requests WHERE user_code_hash = ${secureValueOf(grant.user_code)}`, 0)
      }))

    it.effect("an approver deactivated before the poll gets no key", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { email, project } = yield* person
        const actor = yield* sessionActor(email)
        const grant = yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
        yield* CliAuthService.use((s) => s.authorize(actor, bodyOf({ user_code: grant.user_code, project_id: project })))
        yield* sql`UPDATE users SET is_active = false WHERE id = ${actor.user.id}`
        assert.deepStrictEqual(
          yield* failure(CliAuthService.use((s) => s.poll(bodyOf({ device_code: grant.device_code })))),
          ["ValidationError", "expired_token", "Device code expired"]
        )
        const [keys] = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${actor.user.id}`
        assert.strictEqual(keys!.n, 0)
      }))

    it.effect("a user at ten keys is told at approval; one client address gets 30 device codes in ten minutes", () =>
      Effect.gen(function*() {
        const { email, project } = yield* person
        const actor = yield* sessionActor(email)
        for (let i = 0; i < 10; i++) yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"] }))
        const grant = yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
        assert.deepStrictEqual(
          yield* failure(CliAuthService.use((s) => s.authorize(actor, bodyOf({ user_code: grant.user_code, project_id: project })))),
          ["ValidationError", "invalid_input", "You can only have 10 personal API keys. Remove an existing key before creating a new one."]
        )

        const address = unique("address")
        for (let i = 0; i < 30; i++) yield* CliAuthService.use((s) => s.deviceCode(address))
        const [tag, code, detail] = yield* failure(CliAuthService.use((s) => s.deviceCode(address)))
        assert.deepStrictEqual([tag, code], ["Throttled", undefined])
        assert.match(detail!, /^Request was throttled\. Expected available in \d+ seconds\.$/)
        yield* CliAuthService.use((s) => s.deviceCode(unique("address")))
      }))
  }
))
