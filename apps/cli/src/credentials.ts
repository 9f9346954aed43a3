import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { UsageError } from "./output.ts"

/**
 * What `hedgerow login` keeps, as `gh auth login` does: one server and a personal API key for it, in
 * `$XDG_CONFIG_HOME/hedgerow/config.json` (default `~/.config`), readable by its owner alone (file 0600,
 * directory 0700).
 */
export interface Credentials {
  readonly url: string
  readonly key: string
  /** The key's id on that server, to revoke it at logout. */
  readonly key_id: string
  /** Whether the login made the key (and so logout revokes it), or was given it (`--with-key`). */
  readonly made_by_login: boolean
}

/** The config file's path: from the configuration (the environment) first, so tests and users can move it. */
export const credentialsPath = Effect.gen(function*() {
  const xdg = yield* Config.option(Config.String("XDG_CONFIG_HOME"))
  const home = yield* Config.option(Config.String("HOME"))
  const base = Option.getOrElse(
    Option.filter(xdg, (dir) => path.isAbsolute(dir)),
    () => path.join(Option.getOrElse(home, () => os.homedir()), ".config")
  )
  return path.join(base, "hedgerow", "config.json")
}).pipe(Effect.orDie)

const unreadable = (file: string, reason: string) =>
  new UsageError({ message: `cannot read ${file}: ${reason}; run hedgerow login again, or delete the file` })

const isCredentials = (value: unknown): value is Credentials => {
  const v = value as Record<string, unknown> | null
  return typeof v === "object" && v !== null && typeof v["url"] === "string" && typeof v["key"] === "string" &&
    typeof v["key_id"] === "string" && typeof v["made_by_login"] === "boolean"
}

/** The stored login, or none when there is no file. */
export const readCredentials: Effect.Effect<Option.Option<Credentials>, UsageError> = Effect.gen(function*() {
  const file = yield* credentialsPath
  const text = yield* Effect.tryPromise({
    try: () => fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error))),
    catch: (error) => unreadable(file, (error as Error).message)
  })
  if (text === undefined) return Option.none()
  const parsed = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => unreadable(file, "not JSON") })
  return isCredentials(parsed) ? Option.some(parsed) : yield* unreadable(file, "not a hedgerow login")
})

/**
 * Writes the login whole or not at all: a temporary file created 0600 in the 0700 directory, renamed
 * over the old one, so no other user can ever read the key, not even while it is written.
 */
export const writeCredentials = (credentials: Credentials) =>
  Effect.gen(function*() {
    const file = yield* credentialsPath
    const dir = path.dirname(file)
    const temporary = path.join(dir, `.config.json.${process.pid}.${Date.now()}`)
    yield* Effect.tryPromise({
      try: async () => {
        await fs.mkdir(dir, { recursive: true, mode: 0o700 })
        await fs.chmod(dir, 0o700)
        await fs.writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: "wx" })
        await fs.rename(temporary, file)
      },
      catch: (error) => new UsageError({ message: `cannot write ${file}: ${(error as Error).message}` })
    }).pipe(Effect.tapError(() => Effect.promise(() => fs.rm(temporary, { force: true }))))
    return file
  })

/** Forgets the stored login; nothing to forget is not an error. */
export const removeCredentials = Effect.gen(function*() {
  const file = yield* credentialsPath
  yield* Effect.tryPromise({
    try: () => fs.rm(file, { force: true }),
    catch: (error) => new UsageError({ message: `cannot delete ${file}: ${(error as Error).message}` })
  })
  return file
})

/** Base URLs compare without their trailing slashes. */
export const sameServer = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "")
