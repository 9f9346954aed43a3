import { hostname } from "node:os"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { Command, Flag } from "effect/cli"
import { type Credentials, credentialsPath, readCredentials, removeCredentials, writeCredentials } from "../credentials.ts"
import { emit, jsonFlag, UsageError } from "../output.ts"
import { type ApiClient, remoteFlags, resolveRemote, withClient, withSessionClient } from "../remote.ts"
import { askText, readSecret } from "../secret-input.ts"

/** Who a key belongs to, as the server says: the key itself (never its secret) and its user. */
const whoIs = (client: ApiClient) =>
  Effect.all({ key: client.identity.currentKey(), user: client.identity.me() })

/** The one key piped in (`hedgerow login --with-key < key.txt`), surrounding blank space dropped. */
const keyFromStdin = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) yield* Console.error("Paste a personal API key, then press Enter and Ctrl-D:")
  const text = yield* stdio.stdin.pipe(Stream.decodeText(), Stream.mkString, Effect.orDie)
  const key = text.trim()
  if (key === "" || /\s/.test(key)) {
    return yield* new UsageError({ message: "--with-key reads one personal API key from standard input, e.g. hedgerow login --with-key < key.txt" })
  }
  return key
})

/** A key's label is at most 40 characters. */
const machineLabel = () => `hedgerow CLI on ${hostname()}`.slice(0, 40)

/** The server's answer to a right password for a user with two-factor authentication: the code must follow. */
const needsCode = (error: unknown) => {
  const { _tag, code } = error as { _tag?: unknown; code?: unknown }
  return _tag === "AuthenticationError" && code === "2fa_required"
}

/**
 * Logs in with e-mail and password (and, when the user has two-factor authentication, the app's code or
 * a backup code, from `--otp` or asked on the terminal), makes a `*` key labelled for this machine with
 * that session, and logs the session out again: the key is what the CLI keeps, and `hedgerow logout`
 * revokes it.
 */
const keyFromPassword = (url: string, email: string, password: string, otp: Option.Option<string>) =>
  withSessionClient(url, (client) =>
    Effect.gen(function*() {
      yield* client.sessions.login({ payload: { email, password } }).pipe(
        Effect.asVoid,
        Effect.catchIf(needsCode, () =>
          Effect.gen(function*() {
            const token = Option.isSome(otp) ? otp.value : yield* askText("Two-factor code (or a backup code)", "--otp")
            yield* client.twoFactorLogin.token({ payload: { token } })
          }))
      )
      const made = yield* client.personalApiKeys.create({ payload: { label: machineLabel(), scopes: ["*"] } })
      yield* client.sessions.logout()
      return made.value!
    }))

const login = Command.make("login", {
  url: remoteFlags.url,
  email: Flag.String("email").pipe(Flag.withDescription("Your e-mail (asked on a terminal when absent)"), Flag.optional),
  withKey: Flag.Boolean("with-key").pipe(
    Flag.withDescription("Read a personal API key from standard input instead of asking for e-mail and password"),
    Flag.withDefault(false)
  ),
  otp: Flag.String("otp").pipe(
    Flag.withDescription("The two-factor code from your authenticator app, or a backup code (asked on a terminal when the server wants one)"),
    Flag.optional
  ),
  json: jsonFlag
}, (options) =>
  Effect.gen(function*() {
    const { url } = yield* resolveRemote({ url: options.url, key: Option.none() })
    const made_by_login = !options.withKey
    const key = options.withKey ? yield* keyFromStdin : yield* Effect.gen(function*() {
      const email = Option.isSome(options.email) ? options.email.value : yield* askText("Email", "--email")
      // On a terminal it is asked without echo; otherwise it is the first line of stdin.
      const password = yield* readSecret("Password", { confirm: false })
      return yield* keyFromPassword(url, email, password, options.otp)
    })
    // The key is stored only once the server has accepted it.
    const { key: current, user } = yield* withClient(url, Redacted.make(key), whoIs)
    const file = yield* writeCredentials({ url, key, key_id: current.id, made_by_login })
    yield* emit(options.json, () =>
      `Logged in to ${url} as ${user.email} with key "${current.label}" (${current.mask_value}); stored in ${file}.`)({
        url,
        email: user.email,
        key: current,
        file
      })
  })).pipe(Command.withDescription("Log in with e-mail and password (or --with-key) and keep a personal API key for the API commands, as gh auth login does"))

const refused = (error: unknown) => {
  const tag = (error as { _tag?: unknown })._tag
  return tag === "AuthenticationError" || tag === "NotFound"
}

/** Revokes the key a login made; one already revoked (401) or deleted (404) is gone already. */
const revokeMadeKey = (login: Credentials) =>
  withClient(login.url, Redacted.make(login.key), (client) => client.personalApiKeys.destroy({ params: { id: login.key_id } })).pipe(
    Effect.catchIf(refused, () => Effect.void)
  )

const logout = Command.make("logout", { json: jsonFlag }, (options) =>
  Effect.gen(function*() {
    const stored = yield* readCredentials
    if (Option.isNone(stored)) return yield* new UsageError({ message: "not logged in: there is no stored hedgerow login" })
    const login = stored.value
    if (login.made_by_login) yield* revokeMadeKey(login)
    const file = yield* removeCredentials
    const kept = login.made_by_login
      ? ""
      : ` The key itself stays valid (it was given with --with-key); revoke it with hedgerow keys delete ${login.key_id}.`
    yield* emit(options.json, () => `Logged out of ${login.url}: deleted ${file}.${kept}`)({
      url: login.url,
      key_id: login.key_id,
      revoked: login.made_by_login,
      file
    })
  })).pipe(Command.withDescription("Forget the stored login; revoke its key on the server when the login made it"))

const status = Command.make("status", { json: jsonFlag }, (options) =>
  Effect.gen(function*() {
    const stored = yield* readCredentials
    if (Option.isNone(stored)) return yield* new UsageError({ message: "not logged in: run hedgerow login" })
    const login = stored.value
    const { key, user } = yield* withClient(login.url, Redacted.make(login.key), whoIs).pipe(
      Effect.catchIf(
        (error) => (error as { _tag?: unknown })._tag === "AuthenticationError",
        () => Effect.fail(new UsageError({ message: `the key stored for ${login.url} is refused (revoked or rolled): run hedgerow login again` }))
      )
    )
    const file = yield* credentialsPath
    yield* emit(options.json, () =>
      [
        `Logged in to ${login.url} as ${user.email}`,
        `key: "${key.label}" (${key.mask_value}), id ${key.id}, scopes ${key.scopes.join(",")}`,
        `stored in ${file}`
      ].join("\n"))({ url: login.url, email: user.email, key, made_by_login: login.made_by_login, file })
  })).pipe(Command.withDescription("Show the stored login and check its key against the server"))

export const auth = Command.make("auth").pipe(
  Command.withDescription("The stored login (hedgerow login)"),
  Command.withSubcommands([status])
)

export { login, logout }
