import { assert, layer } from "@effect/vitest"
import { systemActor, UserService } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lines, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use.
const connect = serverSession()
type Session = Effect.Success<typeof connect>

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

const keys = (s: Session, ...args: ReadonlyArray<string>) => runInProcess(["keys", ...args, "--url", s.url, "--key", s.key])

/** A configuration directory of its own per test, as `$XDG_CONFIG_HOME`. */
const configHome = () => fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-config-"))
const configFile = (home: string) => path.join(home, "hedgerow", "config.json")
const modeOf = (file: string) => fs.statSync(file).mode & 0o777

/** A key of the owner's, made through the CLI. */
const madeKey = (s: Session, label: string, scopes = "*") =>
  keys(s, "create", "--label", label, "--scopes", scopes, "--json").pipe(Effect.map((ran) => jsonOf(ran.stdout)))

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow keys, login, logout and auth status", (it) => {
  it.effect("keys create prints the secret once; list never shows it; roll replaces it; delete revokes it", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const text = yield* keys(s, "create", "--label", "deploys", "--scopes", "feature_flag:read, project:read", "--projects", "1")
      assert.strictEqual(text.code, 0, text.stderr)
      const secret = /^Personal API key \(shown only this once, keep it\): (phx_\w{43})$/m.exec(text.stdout)![1]!
      assert.match(text.stdout, /^scopes\s+\["feature_flag:read","project:read"\]$/m)
      assert.match(text.stdout, /^scoped_teams\s+\[1\]$/m)
      const id = /^id\s+(\S+)$/m.exec(text.stdout)![1]!

      const table = yield* keys(s, "list")
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+LABEL\s+MASK_VALUE\s+SCOPES\s+SCOPED_ORGANIZATIONS\s+SCOPED_TEAMS\s+CREATED_AT\s+LAST_USED_AT$/)
      assert.isTrue(rows[0]!.startsWith(`${id}  deploys`), "newest first")
      assert.notInclude(table.stdout, secret)
      const listed = jsonOf((yield* keys(s, "list", "--json")).stdout) as unknown as Array<Record<string, any>>
      assert.deepStrictEqual(listed.map((key) => key.value), listed.map(() => null))

      const rolled = jsonOf((yield* keys(s, "roll", id, "--json")).stdout)
      assert.strictEqual(rolled.id, id)
      assert.match(rolled.value, /^phx_\w{43}$/)
      const old = yield* runInProcess(["keys", "list", "--url", s.url, "--key", secret])
      assert.deepStrictEqual(lines(old.stderr), ["error: Personal API key found in request Authorization header is invalid."])

      const deleted = yield* keys(s, "delete", id)
      assert.deepStrictEqual(lines(deleted.stdout), [`Deleted key ${id}.`])
      const again = yield* keys(s, "delete", id, "--json")
      assert.deepStrictEqual([again.code, again.stdout, lines(again.stderr)], [1, "", ["error: Not found."]])
    }))

  it.effect("keys create refuses what the server would refuse, in the server's words, and a key wider than the one in use", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const bad = yield* keys(s, "create", "--label", "x", "--scopes", "feature_flag:read,nope")
      assert.deepStrictEqual([bad.code, lines(bad.stderr)], [1, ["error: Invalid scope: nope (field scopes)"]])
      const narrow = yield* madeKey(s, "narrow", "user:write,feature_flag:read")
      const wider = yield* runInProcess(["keys", "create", "--label", "x", "--scopes", "*", "--url", s.url, "--key", narrow.value])
      assert.deepStrictEqual(lines(wider.stderr), ["error: Your API key does not have scope '*', so it cannot grant it. (field scopes)"])
      yield* keys(s, "delete", narrow.id)
    }))

  it.effect("login --with-key checks the key, stores URL and key readable by the user alone, and API commands then need neither", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const env = { XDG_CONFIG_HOME: home }
      const key = yield* madeKey(s, "laptop")
      const ran = yield* runInProcess(["login", "--url", s.url, "--with-key"], env, `  ${key.value}\n`)
      assert.strictEqual(ran.code, 0, ran.stderr)
      assert.deepStrictEqual(lines(ran.stdout), [
        `Logged in to ${s.url} as owner@example.com with key "laptop" (${key.mask_value}); stored in ${configFile(home)}.`
      ])
      assert.deepStrictEqual(JSON.parse(fs.readFileSync(configFile(home), "utf8")), {
        url: s.url,
        key: key.value,
        key_id: key.id,
        made_by_login: false
      })
      assert.strictEqual(modeOf(configFile(home)), 0o600)
      assert.strictEqual(modeOf(path.dirname(configFile(home))), 0o700)
      assert.deepStrictEqual(fs.readdirSync(path.dirname(configFile(home))), ["config.json"], "no temporary file is left")

      const listed = yield* runInProcess(["keys", "list", "--json"], env)
      assert.strictEqual(listed.code, 0, listed.stderr)
      assert.isTrue((jsonOf(listed.stdout) as unknown as Array<{ id: string }>).some((k) => k.id === key.id))
      const status = yield* runInProcess(["auth", "status"], env)
      assert.deepStrictEqual(lines(status.stdout), [
        `Logged in to ${s.url} as owner@example.com`,
        `key: "laptop" (${key.mask_value}), id ${key.id}, scopes *`,
        `stored in ${configFile(home)}`
      ])
      // The stored key goes to its own server only; a flag or the environment overrides it.
      const elsewhere = yield* runInProcess(["keys", "list", "--url", "http://127.0.0.1:9"], env)
      assert.deepStrictEqual(lines(elsewhere.stderr), ["error: no API key: pass --key, set HEDGEROW_API_KEY or run hedgerow login"])
      const overridden = yield* runInProcess(["keys", "list"], { ...env, HEDGEROW_API_KEY: "phx_nope" })
      assert.deepStrictEqual(lines(overridden.stderr), ["error: Personal API key found in request Authorization header is invalid."])

      // A key given with --with-key is the user's own: logout forgets it and leaves it valid.
      const out = yield* runInProcess(["logout"], env)
      assert.deepStrictEqual(lines(out.stdout), [
        `Logged out of ${s.url}: deleted ${configFile(home)}. The key itself stays valid (it was given with --with-key); revoke it with hedgerow keys delete ${key.id}.`
      ])
      assert.isFalse(fs.existsSync(configFile(home)))
      assert.strictEqual((yield* runInProcess(["keys", "list", "--url", s.url, "--key", key.value])).code, 0)
      const twice = yield* runInProcess(["logout"], env)
      assert.deepStrictEqual([twice.code, lines(twice.stderr)], [1, ["error: not logged in: there is no stored hedgerow login"]])
      const none = yield* runInProcess(["auth", "status"], env)
      assert.deepStrictEqual([none.code, lines(none.stderr)], [1, ["error: not logged in: run hedgerow login"]])
      yield* keys(s, "delete", key.id)
    }))

  it.effect("login refuses a key the server refuses, or none, and stores nothing", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const env = { XDG_CONFIG_HOME: home }
      const refused = yield* runInProcess(["login", "--url", s.url, "--with-key"], env, "phx_not_a_key\n")
      assert.deepStrictEqual([refused.code, lines(refused.stderr)], [1, ["error: Personal API key found in request Authorization header is invalid."]])
      const empty = yield* runInProcess(["login", "--url", s.url, "--with-key"], env, "\n")
      assert.deepStrictEqual(lines(empty.stderr), [
        "error: --with-key reads one personal API key from standard input, e.g. hedgerow login --with-key < key.txt"
      ])
      assert.isFalse(fs.existsSync(configFile(home)))
      const noEmail = yield* runInProcess(["login", "--url", s.url], env, "a password\n")
      assert.deepStrictEqual([noEmail.code, lines(noEmail.stderr)], [1, ["error: --email is required when stdin is not a terminal"]])
      assert.isFalse(fs.existsSync(configFile(home)))
    }))

  it.effect("login with e-mail and password makes a key for this machine, stores it, and logout revokes it", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* UserService.use((users) => users.setPassword(systemActor, { email: "owner@example.com", password: "a long password" }))
      const home = configHome()
      const env = { XDG_CONFIG_HOME: home }
      const wrong = yield* runInProcess(["login", "--url", s.url, "--email", "owner@example.com"], env, "not the password\n")
      assert.deepStrictEqual([wrong.code, lines(wrong.stderr)], [1, ["error: Invalid email or password."]])
      assert.isFalse(fs.existsSync(configFile(home)))

      const ran = yield* runInProcess(["login", "--url", s.url, "--email", "owner@example.com", "--json"], env, "a long password\n")
      assert.deepStrictEqual([ran.code, lines(ran.stderr)], [0, []])
      const stored = JSON.parse(fs.readFileSync(configFile(home), "utf8"))
      assert.deepStrictEqual([stored.url, stored.made_by_login, modeOf(configFile(home))], [s.url, true, 0o600])
      const listed = jsonOf((yield* keys(s, "list", "--json")).stdout)
      const made = (listed as unknown as ReadonlyArray<{ id: string; label: string; scopes: ReadonlyArray<string> }>).find((key) => key.id === stored.key_id)
      assert.deepStrictEqual([made?.label, made?.scopes], [`hedgerow CLI on ${os.hostname()}`.slice(0, 40), ["*"]])
      // The API commands use it with neither --url nor --key.
      assert.strictEqual((yield* runInProcess(["projects", "list"], env)).code, 0)

      const out = yield* runInProcess(["logout", "--json"], env)
      assert.strictEqual(jsonOf(out.stdout).revoked, true)
      const after = jsonOf((yield* keys(s, "list", "--json")).stdout) as unknown as ReadonlyArray<{ id: string }>
      assert.isFalse(after.some((key) => key.id === stored.key_id))
    }))

  it.effect("logout revokes on the server a key its login made; auth status says when the stored key is refused", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const env = { XDG_CONFIG_HOME: home }
      const made = yield* madeKey(s, "made by a login")
      // What a log-in with e-mail and password stores: a key it made, to be revoked at logout.
      fs.mkdirSync(path.dirname(configFile(home)), { recursive: true, mode: 0o700 })
      fs.writeFileSync(configFile(home), JSON.stringify({ url: s.url, key: made.value, key_id: made.id, made_by_login: true }), { mode: 0o600 })
      const out = yield* runInProcess(["logout", "--json"], env)
      assert.deepStrictEqual(jsonOf(out.stdout), { url: s.url, key_id: made.id, revoked: true, file: configFile(home) })
      const revoked = yield* runInProcess(["keys", "list", "--url", s.url, "--key", made.value])
      assert.deepStrictEqual(lines(revoked.stderr), ["error: Personal API key found in request Authorization header is invalid."])

      // A stored key revoked elsewhere: status says so, and logout still forgets it.
      const other = yield* madeKey(s, "revoked elsewhere")
      yield* runInProcess(["login", "--url", s.url, "--with-key"], env, other.value)
      yield* keys(s, "delete", other.id)
      const status = yield* runInProcess(["auth", "status"], env)
      assert.deepStrictEqual([status.code, lines(status.stderr)], [1, [
        `error: the key stored for ${s.url} is refused (revoked or rolled): run hedgerow login again`
      ]])
      assert.strictEqual((yield* runInProcess(["logout"], env)).code, 0)
      assert.isFalse(fs.existsSync(configFile(home)))
    }))

  it.effect("end to end (child process): login --with-key reads the key piped to it, and the API commands use it", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const key = yield* madeKey(s, "child")
      const env = { XDG_CONFIG_HOME: home }
      const ran = yield* runChild(["login", "--url", s.url, "--with-key", "--json"], env, `${key.value}\n`)
      assert.strictEqual(ran.code, 0, ran.stderr)
      assert.deepStrictEqual([jsonOf(ran.stdout).email, jsonOf(ran.stdout).key.id], ["owner@example.com", key.id])
      assert.notInclude(ran.stdout, key.value)
      const listed = yield* runChild(["keys", "list", "--json"], env)
      assert.strictEqual(listed.code, 0, listed.stderr)
      assert.isTrue((JSON.parse(listed.stdout) as Array<{ id: string }>).some((k) => k.id === key.id))
      yield* keys(s, "delete", key.id)
    }))
})
