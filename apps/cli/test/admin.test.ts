import { assert, describe, it } from "@effect/vitest"
import { Hedgerow } from "@hedgerow/store"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll } from "vitest"
import { lines, runChild, runInProcess } from "./cli-runner.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

// One store for the whole file, filled step by step as an operator would; each test reads ids left by
// earlier ones, so they run in order (vitest's default within a file).
let root: string
let dataDir: string
const state: { organization?: string } = {}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-cli-"))
  dataDir = path.join(root, ".hedgerow")
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const admin = (...args: ReadonlyArray<string>) => runInProcess(["admin", ...args, "--data-dir", dataDir])

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

describe("hedgerow admin", () => {
  it.live("bootstrap (child process) prints one JSON object with the new ids and key, exit 0", () =>
    Effect.gen(function*() {
      const ran = yield* runChild(["admin", "bootstrap", "--email", "ops@example.com", "--org-name", "Acme", "--json"], {
        HEDGEROW_DATA_DIR: dataDir
      })
      assert.strictEqual(ran.stderr, "")
      assert.strictEqual(ran.code, 0)
      const out = jsonOf(ran.stdout)
      assert.deepStrictEqual(Object.keys(out).sort(), ["organization_id", "personal_api_key", "project_id", "user"])
      assert.match(out.organization_id, UUID)
      assert.isNumber(out.project_id)
      assert.deepStrictEqual(Object.keys(out.user).sort(), ["email", "id", "uuid"])
      assert.strictEqual(out.user.email, "ops@example.com")
      assert.match(out.personal_api_key, /^phx_\w+$/)
      state.organization = out.organization_id
    }))

  it.live("bootstrap validates what it is given before looking at the store", () =>
    Effect.gen(function*() {
      const ran = yield* admin("bootstrap", "--email", "not-an-address", "--json")
      assert.strictEqual(ran.code, 1)
      assert.deepStrictEqual(lines(ran.stderr), ["error: Enter a valid email address. (field email)"])
    }))

  it.live("bootstrap on a store whose default e-mail is taken says so on one line", () =>
    Effect.gen(function*() {
      const other = path.join(root, "taken")
      const created = yield* runInProcess(["admin", "users", "create", "--email", "admin@hedgerow.local", "--data-dir", other])
      assert.strictEqual(created.code, 0)
      const ran = yield* runInProcess(["admin", "bootstrap", "--data-dir", other])
      assert.strictEqual(ran.code, 1)
      assert.deepStrictEqual(lines(ran.stderr), ["error: A user with this email already exists. (field email)"])
    }))

  it.live("a second bootstrap (child process) exits 1 with the AlreadyBootstrapped message on one line", () =>
    Effect.gen(function*() {
      const ran = yield* runChild(["admin", "bootstrap", "--data-dir", dataDir, "--json"])
      assert.strictEqual(ran.code, 1)
      assert.strictEqual(ran.stdout, "")
      assert.deepStrictEqual(lines(ran.stderr), [
        "error: This store is already bootstrapped (it holds 1 organization(s)); " +
        "use the other `hedgerow admin` commands to add organizations, users and keys."
      ])
    }))

  it.live("orgs create --json is the Organization", () =>
    Effect.gen(function*() {
      const ran = yield* admin("orgs", "create", "--name", "Beta Labs", "--json")
      assert.strictEqual(ran.code, 0)
      const org = jsonOf(ran.stdout)
      assert.deepStrictEqual(Object.keys(org).sort(), ["created_at", "enforce_2fa", "id", "name", "slug", "updated_at"])
      assert.strictEqual(org.enforce_2fa, null)
      assert.strictEqual(org.name, "Beta Labs")
      assert.strictEqual(org.slug, "beta-labs")
      assert.match(org.id, UUID)
    }))

  it.live("users create --json is the User record", () =>
    Effect.gen(function*() {
      const ran = yield* admin("users", "create", "--email", "dev@example.com", "--first-name", "Dee", "--json")
      assert.strictEqual(ran.code, 0)
      const user = jsonOf(ran.stdout)
      for (const key of ["id", "uuid", "email", "first_name", "last_name", "created_at"]) assert.property(user, key)
      assert.strictEqual(user.email, "dev@example.com")
      assert.strictEqual(user.first_name, "Dee")
      assert.strictEqual(user.last_name, "")
      assert.match(user.uuid, UUID)
    }))

  it.live("members add --json is the Membership, with the level as a number", () =>
    Effect.gen(function*() {
      const ran = yield* admin("members", "add", "--org", state.organization!, "--email", "dev@example.com", "--level", "8", "--json")
      assert.strictEqual(ran.code, 0)
      const membership = jsonOf(ran.stdout)
      assert.strictEqual(membership.organization_id, state.organization)
      assert.strictEqual(membership.level, 8)
      assert.isNumber(membership.user_id)
      assert.property(membership, "id")
    }))

  it.live("keys create --json has the key once, with split scopes and restrictions", () =>
    Effect.gen(function*() {
      const ran = yield* admin(
        "keys", "create", "--email", "dev@example.com", "--scopes", "feature_flag:read, organization:write",
        "--label", "ci", "--orgs", state.organization!, "--projects", "1", "--json"
      )
      assert.strictEqual(ran.code, 0)
      const key = jsonOf(ran.stdout)
      assert.strictEqual(key.label, "ci")
      assert.deepStrictEqual(key.scopes, ["feature_flag:read", "organization:write"])
      assert.deepStrictEqual(key.scoped_organizations, [state.organization])
      assert.deepStrictEqual(key.scoped_teams, [1])
      assert.match(key.personal_api_key, /^phx_\w+$/)
      assert.notProperty(key, "secure_value")
      assert.property(key, "id")
    }))

  it.live("keys create refuses a restriction list that names nothing, so a typo cannot widen a key", () =>
    Effect.gen(function*() {
      const ran = yield* admin("keys", "create", "--email", "dev@example.com", "--scopes", "*", "--projects", ",", "--json")
      assert.strictEqual(ran.code, 1)
      assert.deepStrictEqual(lines(ran.stderr), ["error: This list may not be empty. (field scoped_teams)"])
      const huge = yield* admin("keys", "create", "--email", "dev@example.com", "--scopes", "*", "--projects", "99999999999")
      assert.deepStrictEqual(lines(huge.stderr), ["error: Ensure this value is less than or equal to 2147483647. (field scoped_teams__0)"])
    }))

  it.live("roles create and add-member", () =>
    Effect.gen(function*() {
      const created = yield* admin(
        "roles", "create", "--org", state.organization!, "--name", "Engineers", "--feature-flags-access-level", "21", "--json"
      )
      assert.strictEqual(created.code, 0)
      const role = jsonOf(created.stdout)
      assert.match(role.id, UUID)
      assert.strictEqual(role.name, "Engineers")
      assert.strictEqual(role.feature_flags_access_level, 21)

      const added = yield* admin("roles", "add-member", "--role", role.id, "--email", "dev@example.com", "--json")
      assert.strictEqual(added.code, 0)
      assert.deepStrictEqual(jsonOf(added.stdout), { role_id: role.id, email: "dev@example.com" })

      // Roles only take members of their own organization.
      const outsider = yield* admin("roles", "add-member", "--role", role.id, "--email", "nobody@example.com")
      assert.strictEqual(outsider.code, 1)
      assert.deepStrictEqual(lines(outsider.stderr), [
        "error: This user is not a member of the role's organization. (field email)"
      ])
    }))

  it.live("batch-exports create --json is the BatchExport", () =>
    Effect.gen(function*() {
      const ran = yield* admin(
        "batch-exports", "create", "--org", state.organization!, "--project", "1", "--name", "Nightly", "--model", "persons", "--json"
      )
      assert.strictEqual(ran.code, 0)
      const batchExport = jsonOf(ran.stdout)
      assert.match(batchExport.id, UUID)
      assert.strictEqual(batchExport.project_id, 1)
      assert.strictEqual(batchExport.model, "persons")
      assert.strictEqual(batchExport.paused, false)
    }))

  it.live("a validation failure is one `error:` line naming the field, nothing on stdout, and a failure exit", () =>
    Effect.gen(function*() {
      const ran = yield* admin("members", "add", "--org", state.organization!, "--email", "dev@example.com", "--level", "3", "--json")
      assert.strictEqual(ran.code, 1)
      assert.strictEqual(ran.stdout, "")
      assert.deepStrictEqual(lines(ran.stderr), [`error: "3" is not a valid choice. (field level)`])

      const unknown = yield* admin("batch-exports", "create", "--org", "nope", "--project", "1", "--name", "x")
      assert.deepStrictEqual(lines(unknown.stderr), ["error: Not found."])
    }))

  it.live("a missing required flag is one `error:` line too", () =>
    Effect.gen(function*() {
      const ran = yield* admin("orgs", "create", "--json")
      assert.strictEqual(ran.code, 1)
      assert.deepStrictEqual(lines(ran.stderr), ["error: Missing required flag: --name (see hedgerow admin orgs create --help)"])
    }))

  it.live("text output is readable key/value lines", () =>
    Effect.gen(function*() {
      const ran = yield* admin("orgs", "create", "--name", "Gamma")
      assert.strictEqual(ran.code, 0)
      assert.match(ran.stdout, /^name\s+Gamma$/m)
      assert.match(ran.stdout, /^slug\s+gamma$/m)
    }))

  it.live("while another holder has the data dir (a running server), commands fail with DataDirInUse", () =>
    Effect.gen(function*() {
      yield* Layer.build(Hedgerow.layer({ dataDir }))
      const ran = yield* admin("orgs", "create", "--name", "Blocked")
      assert.strictEqual(ran.code, 1)
      const [line, ...rest] = lines(ran.stderr)
      assert.deepStrictEqual(rest, [])
      assert.include(line, `error: Data directory ${path.resolve(dataDir)} is in use by process ${process.pid}`)
      assert.include(line, "Stop it first, or use another --data-dir.")
    }).pipe(Effect.scoped))
})
