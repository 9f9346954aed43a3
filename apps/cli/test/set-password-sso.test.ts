import { assert, describe, it } from "@effect/vitest"
import { Bootstrap, bodyOf, DomainService, systemActor, UserService } from "@hedgerow/core"
import { Hedgerow } from "@hedgerow/store"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll } from "vitest"
import { lines, runInProcess } from "./cli-runner.ts"

const DOMAIN = "enforced.example.com"
const SAML = { saml_entity_id: "https://idp.example.com/metadata", saml_acs_url: "https://idp.example.com/sso", saml_x509_cert: "MIIC" }

let root: string
let dataDir: string

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-cli-sso-"))
  dataDir = path.join(root, ".hedgerow")
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe("hedgerow admin users set-password where the user's domain enforces SSO", () => {
  it.live("sets the password all the same, and says log-in with it waits for the enforcement to be switched off", () =>
    Effect.gen(function*() {
      // The store as an operator would have it: a verified domain enforcing SAML, with its identity provider set up.
      yield* Effect.gen(function*() {
        const boot = yield* Bootstrap.use((b) => b.run({ email: "owner@example.com" }))
        yield* UserService.use((s) => s.create(systemActor, { email: `ada@${DOMAIN}` }))
        const domain = yield* DomainService.use((s) => s.create(systemActor, boot.organization_id, bodyOf({ domain: DOMAIN })))
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${domain.id}`
        yield* DomainService.use((s) => s.update(systemActor, boot.organization_id, domain.id, bodyOf({ ...SAML, sso_enforcement: "saml" })))
      }).pipe(Effect.provide(Hedgerow.layer({ dataDir })))

      const enforced = yield* runInProcess(["admin", "users", "set-password", "--email", `ada@${DOMAIN}`, "--data-dir", dataDir], {}, "a long enough secret\n")
      assert.deepStrictEqual([enforced.code, lines(enforced.stdout), lines(enforced.stderr)], [0, [
        `Set the password of ada@${DOMAIN}; their sessions have ended. Their e-mail's domain enforces SSO (saml), so log-in with the password stays refused until that domain's SSO enforcement is switched off.`
      ], []])
      const json = yield* runInProcess(
        ["admin", "users", "set-password", "--email", `ada@${DOMAIN}`, "--data-dir", dataDir, "--json"],
        {},
        "a long enough secret\n"
      )
      const answered = JSON.parse(json.stdout) as Record<string, unknown>
      assert.deepStrictEqual([answered["email"], answered["sso_enforcement"]], [`ada@${DOMAIN}`, "saml"])
      const plain = yield* runInProcess(["admin", "users", "set-password", "--email", "owner@example.com", "--data-dir", dataDir], {}, "a long enough secret\n")
      assert.deepStrictEqual(lines(plain.stdout), ["Set the password of owner@example.com; their sessions have ended. They can log in with it now."])
    }))
})
