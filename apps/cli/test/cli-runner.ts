import { NodeServices } from "@effect/platform-node"
import { Bootstrap, type BootstrapOptions, MemberService, PersonalApiKeyService, systemActor, UserService } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { ConfigProvider, Console, Effect, Exit, Sink, Stdio, Stream } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { suiteSettings } from "../../../vitest.shared.ts"
import { runHedgerow } from "../src/hedgerow.ts"

/** What a command left behind: its exit status and everything it printed, split into lines. */
export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
export const bin = path.join(cliDir, "bin", "hedgerow.mjs")

const captureConsole = (out: Array<string>, err: Array<string>): Console.Console => ({
  ...globalThis.console,
  log: (...args: ReadonlyArray<unknown>) => void out.push(args.map(String).join(" ")),
  error: (...args: ReadonlyArray<unknown>) => void err.push(args.map(String).join(" "))
})

/**
 * Runs the command tree in this process (faster than a child: no process start-up), with its console
 * captured, only the suite's settings and `env` visible as configuration, so the developer's HEDGEROW_*
 * cannot leak in, and `stdin` as standard input.
 */
export const runInProcess = (args: ReadonlyArray<string>, env: Record<string, string> = {}, stdin = "") =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const exit = yield* runHedgerow(args).pipe(
      Effect.provideService(Console.Console, captureConsole(out, err)),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: { ...suiteSettings(), ...env } })),
      Effect.provideService(Stdio.Stdio, Stdio.make({
        args: Effect.succeed(args),
        stdout: () => Sink.drain,
        stderr: () => Sink.drain,
        stdin: Stream.make(new TextEncoder().encode(stdin))
      })),
      Effect.provide(NodeServices.layer),
      Effect.exit
    )
    const joined = (lines: ReadonlyArray<string>) => lines.length === 0 ? "" : `${lines.join("\n")}\n`
    return { code: Exit.isSuccess(exit) ? 0 : 1, stdout: joined(out), stderr: joined(err) } satisfies Ran
  })

/**
 * This process's environment without the developer's store and Hedgerow settings (HEDGEROW_*,
 * DATABASE_URL), plus the suite's settings and `env`: a child sees only the configuration its test gives it.
 */
export const childEnv = (env: Record<string, string>) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("HEDGEROW_") && key !== "DATABASE_URL")),
  ...suiteSettings(),
  ...env
})

/** Runs the real executable (`bin/hedgerow.mjs` under this Node) in a child process, from apps/cli, `stdin` piped in. */
export const runChild = (args: ReadonlyArray<string>, env: Record<string, string> = {}, stdin = "") =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: cliDir, env: childEnv(env) })
    child.stdin.end(stdin)
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? -1, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })

/** The lines of a stream that should hold exactly one. */
export const lines = (text: string) => text.split("\n").filter((line) => line !== "")

/** A `hedgerow serve` child process (what `npm start` runs), left running. */
export interface Serving {
  readonly child: ChildProcess
  /** Everything it printed so far, stdout and stderr interleaved. */
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** Where the arguments of a started `hedgerow serve` go: node's, the CLI's global ones, and serve's own. */
export interface ServeArguments {
  readonly nodeFlags?: ReadonlyArray<string>
  readonly globalFlags?: ReadonlyArray<string>
  readonly args?: ReadonlyArray<string>
}

/** Starts `hedgerow serve` on 127.0.0.1 and a free port unless `env` says otherwise. */
export const startServe = (
  env: Record<string, string>,
  { args = [], globalFlags = [], nodeFlags = [] }: ServeArguments = {}
): Serving => {
  const child = spawn(process.execPath, [...nodeFlags, bin, ...globalFlags, "serve", ...args], {
    cwd: cliDir,
    env: childEnv({ PORT: "0", HOST: "127.0.0.1", ...env }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, output: () => output, exited }
}

/** The first match of `pattern` in what the server printed, waiting up to a minute for it. */
export const waitFor = async (serving: Serving, pattern: RegExp) => {
  for (let i = 0; i < 600; i++) {
    const match = pattern.exec(serving.output())
    if (match) return match
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${pattern}:\n${serving.output()}`)
}

/** The base URL once the server prints that it serves. */
export const servingUrl = async (serving: Serving) => (await waitFor(serving, /serving the API on (http:\/\/\S+?) /))[1]!

/** Someone the tests act as: their user's uuid and e-mail, and an all-scopes key of theirs. */
export interface Person {
  readonly uuid: string
  readonly email: string
  readonly key: string
}

/** The server a test file runs against, and its bootstrapped owner with their key, organization and project. */
export interface ServerSession {
  readonly url: string
  readonly key: string
  readonly organization: string
  readonly project: number
  readonly owner: Person
}

/**
 * The file's session: the server's URL, and its store bootstrapped on first use, once, as `bootstrap`
 * asks; what `setup` makes then (more people, a role...) joins the session.
 */
export const serverSession = <A extends object = {}, E = never, R = never>(
  bootstrap: BootstrapOptions = { email: "owner@example.com" },
  setup: (session: ServerSession) => Effect.Effect<A, E, R> = () => Effect.succeed({} as A)
) => {
  let session: (ServerSession & A) | undefined
  return Effect.gen(function*() {
    if (session !== undefined) return session
    const url = yield* HedgerowServer.baseUrl
    const done = yield* Effect.flatMap(Effect.service(Bootstrap), (b) => b.run(bootstrap))
    const owner = { uuid: done.user.uuid, email: done.user.email, key: done.personal_api_key }
    const made: ServerSession = { url, key: owner.key, organization: done.organization_id, project: done.project_id, owner }
    session = { ...made, ...(yield* setup(made)) }
    return session
  })
}

/** A new user, a member of `organization` at `level`, with an all-scopes key of their own. */
export const member = (organization: string, email: string, level: 1 | 8 | 15) =>
  Effect.gen(function*() {
    const user = yield* UserService.use((s) => s.create(systemActor, { email }))
    yield* MemberService.use((s) => s.add(systemActor, organization, { email, level }))
    const key = yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"] }))
    return { uuid: user.uuid as string, email, key: key.personal_api_key } satisfies Person
  })
