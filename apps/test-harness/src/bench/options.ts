import { parseArgs } from "node:util"
import { type BenchOptions, defaultBenchOptions, type Section, SECTIONS } from "./run-bench.ts"

export const usage = `Usage: npm run bench -- [--only SECTIONS] [--duration S] [--connections N] [--warmup S] [--steady S]
                       [--database-url URL]

  --only SECTIONS     a comma-separated list of the sections to run, in their order (default all but
                      scenarios; all of them with --database-url):
                        shipped    \`hedgerow serve\` on a data dir of 100 flags, its request log going to a
                                   file, against a bare node:http process, request by request: server
                                   CPU per request, req/s, p50/p99; then GET flag over the first 5 s
                                   after a start and with the request log off
                        postgres   the same requests on PostgreSQL: a cluster the bench starts (Debian's
                                   newest in /usr/lib/postgresql, skipped when there is none), a database
                                   of 100 flags served by one and then by two \`hedgerow serve\` processes;
                                   the servers' and the database's CPU per request, and each server's RSS
                        embedding  openHedgerow in this process: CPU and wall µs of flags.getAll of 100
                                   flags per person, beside posthog-node's local getAllFlags of the
                                   same flags and people, their answers compared
                        scenarios  Hedgerow in this process on an in-memory store against a bare
                                   node:http server, request by request, with Effect's HttpApi alone
                                   beside the throughput targets
                        cli        \`hedgerow serve\` started on a new and on an existing data dir, to its first
                                   200; \`hedgerow --version\`, \`--help\` and \`flags list\`
                        memory     one \`hedgerow serve\` on a data dir of 10,000 flags: resident memory
                                   through a steady mixed load, then 40,000 fuzzed writes
  --duration S        seconds of measured load per scenario and target (default ${defaultBenchOptions.durationSeconds})
  --connections N     concurrent connections (default ${defaultBenchOptions.connections})
  --warmup S          seconds of unreported load before each measured run and before the memory section's
                      first reading, 0 for none (default ${defaultBenchOptions.warmupSeconds})
  --steady S          seconds of the memory section's steady load (default ${defaultBenchOptions.steadySeconds})
  --database-url URL  run the scenarios on the PostgreSQL server at URL instead of Hedgerow in this process
                      on its in-memory store: twice, with one and with two \`hedgerow serve\` processes; and
                      the postgres section there instead of on a cluster of its own. Each run creates a
                      fresh database on that server (its user needs CREATEDB) and drops it at the end; the
                      database named in URL is never written to. The shipped, cli and memory sections
                      always run on the embedded store, in a temporary data dir removed afterwards.`

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

/** Known section names, each once; the run keeps its own order whatever order they are given in. */
const sections = (raw: string | undefined): ReadonlyArray<Section> | undefined => {
  if (raw === undefined) return undefined
  const names = raw.split(",").map((name) => name.trim())
  const unknown = names.filter((name) => !(SECTIONS as ReadonlyArray<string>).includes(name))
  if (unknown.length > 0) {
    throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(", ")}, got "${raw}"`)
  }
  return SECTIONS.filter((section) => names.includes(section))
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
        steady: { type: "string" },
        only: { type: "string" },
        "database-url": { type: "string" },
        help: { type: "boolean", short: "h" }
      }
    })
    if (values.help) return { _tag: "help" }
    return {
      _tag: "run",
      options: {
        sections: sections(values.only),
        durationSeconds: number("duration", values.duration, defaultBenchOptions.durationSeconds,
          (n) => Number.isFinite(n) && n > 0, "a positive number of seconds"),
        connections: number("connections", values.connections, defaultBenchOptions.connections,
          (n) => Number.isInteger(n) && n > 0, "a positive integer"),
        warmupSeconds: number("warmup", values.warmup, defaultBenchOptions.warmupSeconds,
          (n) => Number.isFinite(n) && n >= 0, "a number of seconds, 0 or more"),
        steadySeconds: number("steady", values.steady, defaultBenchOptions.steadySeconds,
          (n) => Number.isFinite(n) && n > 0, "a positive number of seconds"),
        databaseUrl: databaseUrl(values["database-url"])
      }
    }
  } catch (error) {
    return { _tag: "invalid", reason: error instanceof Error ? error.message : String(error) }
  }
}
