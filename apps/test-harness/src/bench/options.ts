import { parseArgs } from "node:util"
import { type BenchOptions, defaultBenchOptions } from "./run-bench.ts"

export const usage = `Usage: npm run bench -- [--duration S] [--connections N] [--warmup S] [--database-url URL]

  --duration S        seconds of measured load per target (default ${defaultBenchOptions.durationSeconds})
  --connections N     concurrent connections (default ${defaultBenchOptions.connections})
  --warmup S          seconds of unreported load before each measured run, 0 for none (default ${defaultBenchOptions.warmupSeconds})
  --database-url URL  run on the PostgreSQL server at URL instead of Hedgerow in this process on its
                      in-memory store: twice, with one and with two \`hedgerow serve\` processes. Each run
                      creates a fresh database on that server (its user needs CREATEDB) and drops it at
                      the end; the database named in URL is never written to.`

/** What the command line asks for; anything other than `run` ends the process without a benchmark. */
export type Invocation =
  | { readonly _tag: "run"; readonly options: BenchOptions }
  | { readonly _tag: "help" }
  | { readonly _tag: "invalid"; readonly reason: string }

/** A postgres:// (or postgresql://) URL; the server says the rest when the run connects. */
const databaseUrl = (raw: string | undefined) => {
  if (raw === undefined) return undefined
  let protocol: string
  try {
    protocol = new URL(raw).protocol
  } catch {
    // Not echoed: an unparseable URL may still hold a password.
    throw new Error("--database-url must be a URL such as postgres://user@host:5432/db")
  }
  if (protocol !== "postgres:" && protocol !== "postgresql:") {
    throw new Error(`--database-url must be a postgres:// URL, got one starting with ${protocol}//`)
  }
  return raw
}

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
    return {
      _tag: "run",
      options: {
        durationSeconds: number("duration", values.duration, defaultBenchOptions.durationSeconds,
          (n) => Number.isFinite(n) && n > 0, "a positive number of seconds"),
        connections: number("connections", values.connections, defaultBenchOptions.connections,
          (n) => Number.isInteger(n) && n > 0, "a positive integer"),
        warmupSeconds: number("warmup", values.warmup, defaultBenchOptions.warmupSeconds,
          (n) => Number.isFinite(n) && n >= 0, "a number of seconds, 0 or more"),
        databaseUrl: databaseUrl(values["database-url"])
      }
    }
  } catch (error) {
    return { _tag: "invalid", reason: error instanceof Error ? error.message : String(error) }
  }
}
