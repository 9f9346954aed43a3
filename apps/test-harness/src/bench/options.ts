import { parseArgs } from "node:util"
import { type BenchOptions, defaultBenchOptions } from "./run-bench.ts"

export const usage = `Usage: npm run bench -- [--duration S] [--connections N] [--warmup S]

  --duration S      seconds of measured load per target (default ${defaultBenchOptions.durationSeconds})
  --connections N   concurrent connections (default ${defaultBenchOptions.connections})
  --warmup S        seconds of unreported load before each measured run, 0 for none (default ${defaultBenchOptions.warmupSeconds})
  --database-url U  PostgreSQL store: not supported yet`

/** What the command line asks for; anything other than `run` ends the process without a benchmark. */
export type Invocation =
  | { readonly _tag: "run"; readonly options: BenchOptions }
  | { readonly _tag: "help" }
  | { readonly _tag: "invalid"; readonly reason: string }
  | { readonly _tag: "unsupported"; readonly reason: string }

const number = (flag: string, raw: string | undefined, fallback: number, valid: (n: number) => boolean, expected: string) => {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (raw.trim() === "" || !valid(n)) throw new Error(`--${flag} must be ${expected}, got "${raw}"`)
  return n
}

export const parseInvocation = (args: ReadonlyArray<string>): Invocation => {
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        duration: { type: "string" },
        connections: { type: "string" },
        warmup: { type: "string" },
        "database-url": { type: "string" },
        help: { type: "boolean", short: "h" }
      }
    })
    if (values.help) return { _tag: "help" }
    // Refused outright: quietly benchmarking the in-memory store instead would be mislabelled figures.
    if (values["database-url"] !== undefined) {
      return {
        _tag: "unsupported",
        reason: "The benchmark does not support PostgreSQL yet (--database-url); it only runs Hedgerow on " +
          "its in-memory embedded store. Run it without --database-url."
      }
    }
    return {
      _tag: "run",
      options: {
        durationSeconds: number("duration", values.duration, defaultBenchOptions.durationSeconds,
          (n) => Number.isFinite(n) && n > 0, "a positive number of seconds"),
        connections: number("connections", values.connections, defaultBenchOptions.connections,
          (n) => Number.isInteger(n) && n > 0, "a positive integer"),
        warmupSeconds: number("warmup", values.warmup, defaultBenchOptions.warmupSeconds,
          (n) => Number.isFinite(n) && n >= 0, "a number of seconds, 0 or more")
      }
    }
  } catch (error) {
    return { _tag: "invalid", reason: error instanceof Error ? error.message : String(error) }
  }
}
