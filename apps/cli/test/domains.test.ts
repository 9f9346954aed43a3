import { assert, layer } from "@effect/vitest"
import { BatchExportService, systemActor } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { ConfigProvider, Effect, Layer } from "effect"
import { lines, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// One server for the file; bootstrap and a batch export happen on first use.
const connect = serverSession({ email: "owner@example.com" }, (s) =>
  Effect.map(
    BatchExportService.use((exports) => exports.create(systemActor, s.organization, { project_id: s.project, name: "Nightly" })),
    (made) => ({ batchExport: made.id })
  ))
type Session = Effect.Success<typeof connect>

const cli = (s: Session, ...args: ReadonlyArray<string>) => runInProcess([...args, "--url", s.url, "--key", s.key])
const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

let counter = 0
const fresh = () => `cli-${++counter}-${Date.now()}.example.com`

// DNS goes to a loopback port where nothing listens: every lookup fails at once, on any machine.
const Server = HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HEDGEROW_DNS_SERVERS: "127.0.0.1:9", HEDGEROW_DNS_TIMEOUT_MS: "2000" } })))
)

layer(Server, { excludeTestServices: true })("hedgerow domains and batch-exports", (it) => {
  it.effect("create, get, list, update and delete, as JSON and as text", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const name = fresh()
      const created = yield* cli(s, "domains", "create", "--domain", name, "--saml-entity-id", "entity", "--json")
      assert.strictEqual(created.stderr, "")
      const domain = jsonOf(created.stdout)
      assert.strictEqual(domain.domain, name)
      assert.strictEqual(domain.is_verified, false)
      assert.strictEqual(domain.saml_entity_id, "entity")
      assert.match(domain.verification_challenge, /^[A-Za-z0-9_-]{43}$/)

      const shown = yield* cli(s, "domains", "get", domain.id, "--org", s.organization)
      assert.strictEqual(shown.code, 0)
      assert.include(shown.stdout, `domain                    ${name}`)
      assert.include(shown.stdout, `verification_challenge    ${domain.verification_challenge}`)

      const table = yield* cli(s, "domains", "list")
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+DOMAIN\s+IS_VERIFIED\s+JIT_PROVISIONING_ENABLED\s+SSO_ENFORCEMENT\s+HAS_SAML$/)
      assert.isTrue(rows.some((row) => row.startsWith(domain.id) && row.includes(name)))

      const updated = yield* cli(s, "domains", "update", domain.id, "--saml-acs-url", "https://acs", "--data", JSON.stringify({ saml_x509_cert: "CERT" }), "--json")
      assert.strictEqual(updated.stderr, "")
      assert.strictEqual(jsonOf(updated.stdout).has_saml, true)

      const deleted = yield* cli(s, "domains", "delete", domain.id)
      assert.deepStrictEqual(lines(deleted.stdout), [`Deleted domain ${domain.id}.`])
      const gone = yield* cli(s, "domains", "get", domain.id)
      assert.strictEqual(gone.code, 1)
      assert.deepStrictEqual(lines(gone.stderr), ["error: Not found."])
    }))

  it.effect("a name the server would refuse is refused in its words without a request; so are taken names and gated settings", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const bad = yield* cli(s, "domains", "create", "--domain", "Not A Domain")
      assert.strictEqual(bad.code, 1)
      assert.deepStrictEqual(lines(bad.stderr), ["error: Please enter a valid domain or subdomain name. (field domain)"])

      const name = fresh()
      const first = jsonOf((yield* cli(s, "domains", "create", "--domain", name, "--json")).stdout)
      const taken = yield* cli(s, "domains", "create", "--domain", name)
      assert.deepStrictEqual(lines(taken.stderr), ["error: domain with this domain already exists. (field domain)"])

      const gated = yield* cli(s, "domains", "update", first.id, "--jit", "true")
      assert.strictEqual(gated.code, 1)
      assert.deepStrictEqual(lines(gated.stderr), [
        "error: This attribute cannot be updated until the domain is verified. (field jit_provisioning_enabled)"
      ])
      const choice = yield* cli(s, "domains", "update", first.id, "--sso-enforcement", "okta")
      assert.deepStrictEqual(lines(choice.stderr), ["error: \"okta\" is not a valid choice. (field sso_enforcement)"])
    }))

  it.effect("verify reports the outcome and what to publish", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const domain = jsonOf((yield* cli(s, "domains", "create", "--domain", fresh(), "--json")).stdout)
      const text = yield* cli(s, "domains", "verify", domain.id)
      assert.strictEqual(text.code, 0)
      assert.deepStrictEqual(lines(text.stdout), [
        `${domain.domain} is not verified: no TXT record with its challenge was found.`,
        `Publish a TXT record at _hedgerow-challenge.${domain.domain} (or the server's configured prefix) with the value`,
        `  ${domain.verification_challenge}`,
        "and run this command again."
      ])
      const json = jsonOf((yield* cli(s, "domains", "verify", domain.id, "--json")).stdout)
      assert.deepStrictEqual(json, domain)
    }))

  it.effect("batch-exports pause and unpause, idempotent, with PostHog's answer as JSON", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const paused = yield* cli(s, "batch-exports", "pause", s.batchExport)
      assert.deepStrictEqual(lines(paused.stdout), [`Batch export ${s.batchExport} is paused.`])
      const again = yield* cli(s, "batch-exports", "pause", s.batchExport, "--org", s.organization, "--json")
      assert.deepStrictEqual(jsonOf(again.stdout), { id: s.batchExport, paused: true })
      const resumed = yield* cli(s, "batch-exports", "unpause", s.batchExport, "--json")
      assert.deepStrictEqual(jsonOf(resumed.stdout), { id: s.batchExport, paused: false })

      const unknown = "00000000-0000-4000-8000-000000000000"
      const missing = yield* cli(s, "batch-exports", "pause", unknown)
      assert.strictEqual(missing.code, 1)
      assert.deepStrictEqual(lines(missing.stderr), [`error: BatchExport ID '${unknown}' not found.`])
    }))

  it.effect("batch-exports list and get show what the API holds, as JSON and as text", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* cli(s, "batch-exports", "pause", s.batchExport)
      const listed = yield* cli(s, "batch-exports", "list", "--json")
      assert.strictEqual(listed.stderr, "")
      const page = jsonOf(listed.stdout)
      assert.strictEqual(page.count, 1)
      const [item] = page.results
      assert.deepInclude(item, { id: s.batchExport, name: "Nightly", model: "events", paused: true })

      const table = yield* cli(s, "batch-exports", "list", "--org", s.organization)
      const [header, row, footer] = lines(table.stdout)
      assert.match(header!, /^ID\s+NAME\s+MODEL\s+INTERVAL\s+PAUSED\s+LAST_PAUSED_AT$/)
      assert.match(row!, new RegExp(`^${s.batchExport}\\s+Nightly\\s+events\\s+hour\\s+true\\s+${item.last_paused_at}$`))
      assert.strictEqual(footer, "1 in all")

      const shown = yield* cli(s, "batch-exports", "get", s.batchExport, "--json")
      assert.deepStrictEqual(jsonOf(shown.stdout), item)
      const text = yield* cli(s, "batch-exports", "get", s.batchExport)
      assert.include(text.stdout, `team_id         ${item.team_id}`)
      assert.include(text.stdout, "destination     {}")
      yield* cli(s, "batch-exports", "unpause", s.batchExport)

      const missing = yield* cli(s, "batch-exports", "get", "nope")
      assert.strictEqual(missing.code, 1)
      assert.deepStrictEqual(lines(missing.stderr), ["error: BatchExport ID 'nope' not found."])
    }))

  it.effect("end to end (child process): exit codes, one JSON object on stdout, one line on stderr", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key }
      const listed = yield* runChild(["domains", "list", "--json"], env)
      assert.strictEqual(listed.code, 0)
      assert.deepStrictEqual(Object.keys(jsonOf(listed.stdout)).sort(), ["count", "next", "previous", "results"])
      const missing = yield* runChild(["batch-exports", "unpause", "nope", "--json"], env)
      assert.strictEqual(missing.code, 1)
      assert.strictEqual(missing.stdout, "")
      assert.deepStrictEqual(lines(missing.stderr), ["error: BatchExport ID 'nope' not found."])
    }))
})
