import { NodeServices } from "@effect/platform-node"
import { ConfigProvider, Console, Effect, Exit } from "effect"
import { spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { runHedgerow } from "../src/hedgerow.ts"

/** What a command left behind: its exit status and everything it printed, split into lines. */
export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = path.join(cliDir, "bin", "hedgerow.mjs")

const captureConsole = (out: Array<string>, err: Array<string>): Console.Console => ({
  ...globalThis.console,
  log: (...args: ReadonlyArray<unknown>) => void out.push(args.map(String).join(" ")),
  error: (...args: ReadonlyArray<unknown>) => void err.push(args.map(String).join(" "))
})

/**
 * Runs the command tree in this process (much faster than a child: no tsx start-up), with its console
 * captured and only `env` visible as configuration, so the developer's HEDGEROW_* cannot leak in.
 */
export const runInProcess = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const exit = yield* runHedgerow(args).pipe(
      Effect.provideService(Console.Console, captureConsole(out, err)),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })),
      Effect.provide(NodeServices.layer),
      Effect.exit
    )
    const joined = (lines: ReadonlyArray<string>) => lines.length === 0 ? "" : `${lines.join("\n")}\n`
    return { code: Exit.isSuccess(exit) ? 0 : 1, stdout: joined(out), stderr: joined(err) } satisfies Ran
  })

/** Runs the real executable (`bin/hedgerow.mjs` under this Node) in a child process, from apps/cli. */
export const runChild = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.callback<Ran>((resume) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("HEDGEROW_")))
    const child = spawn(process.execPath, [bin, ...args], { cwd: cliDir, env: { ...inherited, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? -1, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })

/** The lines of a stream that should hold exactly one. */
export const lines = (text: string) => text.split("\n").filter((line) => line !== "")
