import { assert, layer } from "@effect/vitest"
import { bodyOf, DomainService, MemberService, systemActor, UserService } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bin, childEnv, cliDir, lines, runInProcess, serverSession, type ServerSession } from "./cli-runner.ts"

const connect = serverSession()
const PASSWORD = "a long password"

/** A configuration directory of its own per test, as `$XDG_CONFIG_HOME`. */
const configHome = () => fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-config-"))
const configFile = (home: string) => path.join(home, "hedgerow", "config.json")

/**
 * `hedgerow login --browser` as a real process: what it prints as it goes, a wait for a line of its
 * stderr, and its end.
 */
const startLogin = (args: ReadonlyArray<string>, env: Record<string, string>, mode: ReadonlyArray<string> = ["--browser"]) => {
  const child = spawn(process.execPath, [bin, "login", ...mode, ...args], { cwd: cliDir, env: childEnv(env) })
  child.stdin.end()
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk) => (stdout += chunk))
  child.stderr.on("data", (chunk) => (stderr += chunk))
  const exited = new Promise<number>((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal === null ? -1 : 128))))
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const started = Date.now()
      const look = () => {
        const found = pattern.exec(stderr)
        if (found !== null) return resolve(found)
        if (Date.now() - started > 20_000) return reject(new Error(`no ${pattern} in:\n${stderr}`))
        setTimeout(look, 20)
      }
      look()
    })
  return { child, exited, printed, stdout: () => stdout, stderr: () => stderr }
}

const cookieOf = (response: Response, name: string) =>
  response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!).find((pair) => pair.startsWith(`${name}=`))!.slice(name.length + 1)

/** The test as the person's browser logging in with the password: its session and CSRF token. */
const browserSession = async (s: ServerSession, email: string) => {
  const login = await fetch(`${s.url}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  assert.strictEqual(login.status, 200)
  return { session: cookieOf(login, "sessionid"), csrf: cookieOf(login, "posthog_csrftoken") }
}

/** The test as the person's browser: logs in with the password, then approves the code with the CSRF token. */
const approveInBrowser = async (s: ServerSession, user_code: string, browser?: { readonly session: string; readonly csrf: string }) => {
  const { session, csrf } = browser ?? await browserSession(s, s.owner.email)
  const approved = await fetch(`${s.url}/api/cli-auth/authorize/`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `sessionid=${session}; posthog_csrftoken=${csrf}`, "x-csrftoken": csrf },
    body: JSON.stringify({ user_code, project_id: s.project })
  })
  assert.strictEqual(approved.status, 200, await approved.clone().text())
  return (await approved.json()) as { status: string; label: string }
}

/**
 * A display and an `xdg-open` that notes what it was asked to open, in place of a real browser: the
 * environment to run the CLI in, and the file that holds what it opened.
 */
const fakeOpener = (home: string) => {
  const tools = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-opener-"))
  const opened = path.join(tools, "opened")
  fs.writeFileSync(path.join(tools, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 })
  const env = { XDG_CONFIG_HOME: home, DISPLAY: ":99", PATH: `${tools}${path.delimiter}${process.env["PATH"] ?? ""}` }
  return { env, opened }
}

/** A verified domain's SAML identity provider, set up. */
const SAML = { saml_entity_id: "https://idp.example.com/metadata", saml_acs_url: "https://idp.example.com/sso", saml_x509_cert: "MIIC" }

const CODE_URL = /^ {2}(\S+\/cli\/authorize\?code=([A-Z]{4}-[0-9]{4}))$/m

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow login --browser", (it) => {
  it.effect("prints the page and the code, polls while the browser approves, and stores the * key as the password log-in does", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* UserService.use((users) => users.setPassword(systemActor, { email: s.owner.email, password: PASSWORD }))
      const home = configHome()
      const { env: withOpener, opened } = fakeOpener(home)
      const login = startLogin(["--url", s.url, "--json"], withOpener)
      const [, page, code] = yield* Effect.promise(() => login.printed(CODE_URL))
      assert.match(lines(login.stderr())[0]!, new RegExp(`check that it shows the code ${code}:$`))
      yield* Effect.promise(() => login.printed(/Waiting for you to authorize it there/))
      const approved = yield* Effect.promise(() => approveInBrowser(s, code!))
      assert.strictEqual(yield* Effect.promise(() => login.exited), 0, login.stderr())
      assert.strictEqual(fs.readFileSync(opened, "utf8"), page)

      const printed = JSON.parse(login.stdout())
      assert.deepStrictEqual([printed.url, printed.email, printed.key.label, printed.key.scopes], [s.url, s.owner.email, approved.label, ["*"]])
      const stored = JSON.parse(fs.readFileSync(configFile(home), "utf8"))
      assert.deepStrictEqual([stored.url, stored.key_id, stored.made_by_login], [s.url, printed.key.id, true])
      assert.match(stored.key, /^phx_\w{43}$/)
      assert.strictEqual(fs.statSync(configFile(home)).mode & 0o777, 0o600)
      assert.notInclude(login.stderr() + login.stdout(), stored.key)
      // The API commands use it with neither --url nor --key, and logout revokes it.
      const env = { XDG_CONFIG_HOME: home }
      assert.strictEqual((yield* runInProcess(["projects", "list"], env)).code, 0)
      const out = yield* runInProcess(["logout", "--json"], env)
      assert.strictEqual(JSON.parse(out.stdout).revoked, true)
      const refused = yield* runInProcess(["projects", "list", "--url", s.url, "--key", stored.key])
      assert.deepStrictEqual(lines(refused.stderr), ["error: Personal API key found in request Authorization header is invalid."])
    }), { timeout: 60_000 })

  it.effect("--no-open only prints the page; a code that expires unapproved ends the wait with a usage error and stores nothing", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const { env, opened } = fakeOpener(home)
      const login = startLogin(["--url", s.url, "--no-open"], env)
      yield* Effect.promise(() => login.printed(/Waiting for you to authorize it there/))
      // Every authorization gone, as ten minutes would leave it.
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM cli_auth_requests`
      assert.strictEqual(yield* Effect.promise(() => login.exited), 1)
      assert.strictEqual(lines(login.stderr()).at(-1), "error: the code expired before it was approved: run hedgerow login --browser again")
      assert.isFalse(fs.existsSync(opened))
      assert.isFalse(fs.existsSync(configFile(home)))
    }), { timeout: 60_000 })

  it.effect("Ctrl-C ends the wait and stores nothing", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const home = configHome()
      const login = startLogin(["--url", s.url, "--no-open"], { XDG_CONFIG_HOME: home })
      yield* Effect.promise(() => login.printed(/Waiting for you to authorize it there/))
      login.child.kill("SIGINT")
      // A stop by signal is a clean stop for the CLI (exit 0, see src/run.ts): nothing logged in, nothing kept.
      assert.strictEqual(yield* Effect.promise(() => login.exited), 0)
      assert.strictEqual(login.stdout(), "")
      assert.notInclude(login.stderr(), "Logged in")
      assert.isFalse(fs.existsSync(configFile(home)))
    }), { timeout: 60_000 })

  it.effect("an e-mail whose domain enforces SSO is not asked for a password: the log-in goes on in the browser", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const domain = "sso-cli.example.com"
      const email = `ada@${domain}`
      yield* UserService.use((users) => users.create(systemActor, { email }))
      yield* MemberService.use((members) => members.add(systemActor, s.organization, { email, level: 1 }))
      yield* UserService.use((users) => users.setPassword(systemActor, { email, password: PASSWORD }))
      // Logged in before the domain began to enforce SSO: the session lives on, as it would after an SSO log-in.
      const browser = yield* Effect.promise(() => browserSession(s, email))
      const made = yield* DomainService.use((domains) => domains.create(systemActor, s.organization, bodyOf({ domain })))
      yield* (yield* SqlClient.SqlClient)`UPDATE domains SET verified_at = now() WHERE id = ${made.id}`
      yield* DomainService.use((domains) =>
        domains.update(systemActor, s.organization, made.id, bodyOf({ ...SAML, sso_enforcement: "saml" })))

      const home = configHome()
      const login = startLogin(["--url", s.url, "--email", email, "--no-open", "--json"], { XDG_CONFIG_HOME: home }, [])
      const [, , code] = yield* Effect.promise(() => login.printed(CODE_URL))
      assert.strictEqual(lines(login.stderr())[0], `${email} logs in with single sign-on (saml): continuing in the browser.`)
      yield* Effect.promise(() => approveInBrowser(s, code!, browser))
      assert.strictEqual(yield* Effect.promise(() => login.exited), 0, login.stderr())
      assert.notInclude(login.stderr(), "Password")
      assert.strictEqual(JSON.parse(login.stdout()).email, email)
      assert.strictEqual(JSON.parse(fs.readFileSync(configFile(home), "utf8")).made_by_login, true)
    }), { timeout: 60_000 })

  it.effect("--browser takes neither --with-key nor --email", () =>
    Effect.gen(function*() {
      const s = yield* connect
      for (const extra of [["--with-key"], ["--email", "owner@example.com"]]) {
        const ran = yield* runInProcess(["login", "--browser", "--url", s.url, ...extra], { XDG_CONFIG_HOME: configHome() })
        assert.deepStrictEqual([ran.code, lines(ran.stderr)], [1, ["error: --browser takes neither --with-key nor --email: the browser says who you are"]])
      }
    }))
})
