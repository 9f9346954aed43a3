import { layerPostgres } from "@hedgerow/store"
import { forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { assert, describe, it } from "vitest"
import type { EmbeddingFigures } from "../src/bench/embedding.ts"
import { embeddingChecks } from "../src/bench/embedding-table.ts"
import { eventScenarios } from "../src/bench/event-scenarios.ts"
import { flagScenarios } from "../src/bench/flag-scenarios.ts"
import { serverErrors } from "../src/bench/fuzzed-writes.ts"
import { failures } from "../src/bench/load.ts"
import { atMost } from "../src/bench/goals.ts"
import type { LoadFigures } from "../src/bench/load.ts"
import { parseInvocation } from "../src/bench/options.ts"
import { cpuTicksOf } from "../src/bench/process-cpu.ts"
import { type BenchFigures, defaultSections, failedRequests, loadsOf, runBench } from "../src/bench/run-bench.ts"
import { NO_BINARIES, postgresBinaries } from "../src/bench/postgres-cluster.ts"
import { cpuMicrosPerRequest, type ShippedFigures, shippedScenarios, WARM_ROUNDS } from "../src/bench/shipped.ts"
import { shippedChecks } from "../src/bench/shipped-table.ts"
import type { Scenario } from "../src/bench/scenario.ts"
import { getProject } from "../src/bench/scenarios.ts"
import { targetingScenarios } from "../src/bench/targeting-scenarios.ts"
import { formatBench } from "../src/bench/table.ts"

/** A run of the bench that starts server processes one after another, each waited for: minutes on a slow machine. */
const BENCH_RUN_MS = 240_000

// A fraction of a second per target proves the whole path (seeding, server,
// probe, worker, baseline) for every scenario without being a benchmark; the flag search runs over a small seed
// instead of 10,000.
const scenarios = [getProject, ...flagScenarios({ listFlags: 100, searchFlags: 400 }), ...eventScenarios, ...targetingScenarios]
// On PostgreSQL every scenario runs twice, each run with its own server processes to start: seeding with
// ANALYZE, the search, and the writes spread over two processes are what differ from the in-process run.
const postgresScenarios = scenarios.filter((scenario) => scenario.name !== "GET project" && scenario.name !== "GET flag")

/** Every run measured every scenario on both targets, and no request failed; timings are not judged. */
const assertClean = (figures: BenchFigures, expected: ReadonlyArray<Scenario>) => {
  for (const run of figures.runs) {
    assert.deepStrictEqual(run.scenarios.map((s) => s.name), expected.map((s) => s.name), run.label)
    for (const scenario of run.scenarios) {
      const where = `${run.label}: ${scenario.name}`
      // A 304 has no body.
      if (scenario.status !== 304) assert.isAbove(scenario.responseBytes, 0, where)
      // HttpApi alone is measured exactly where Hedgerow has a throughput goal.
      assert.strictEqual(scenario.httpApiAlone !== undefined, scenario.throughputGoal !== undefined, where)
      for (const target of loadsOf(scenario)) {
        assert.isAbove(target.requestsPerSecond, 0, where)
        assert.isAbove(target.p50Ms, 0, where)
        assert.isAtLeast(target.p99Ms, target.p50Ms, where)
        assert.strictEqual(target.errors, 0, where)
        assert.strictEqual(target.non2xx, 0, where)
      }
      assert.isTrue(scenario.memoryAfterHedgerow.every((process) => process.rssBytes > 0), where)
    }
    // The list is a full default page of 100 flags (each over 1,000 bytes), not an empty project.
    assert.isAbove(run.scenarios.find((s) => s.name === "GET flags, a project of 100 flags")!.responseBytes, 100_000, run.label)
    // The search finds seeded flags (two in 400), not an empty page.
    assert.isAbove(run.scenarios.find((s) => s.name.startsWith("GET flags ?search="))!.responseBytes, 1000, run.label)
  }
  assert.strictEqual(failedRequests(figures), 0)
}

/** A load's figures with these requests answered, all of them 200. */
const load = (completed: number, requestsPerSecond: number): LoadFigures => ({
  requestsPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  completed,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { 200: completed },
  completedByOrigin: {}
})

/** Runs one statement on the test server's own database (roles and the catalog only, never its tables). */
const onServer = <A>(url: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.gen(function*() {
    return yield* statement(yield* SqlClient.SqlClient)
  }).pipe(Effect.provide(layerPostgres({ url, poolSize: 2 }))))

describe("benchmark driver", () => {
  forEachBackend((backend) => {
    if (backend.name === "pglite") {
      it("measures Hedgerow in this process and the baseline with no failed request", async () => {
        const figures = await Effect.runPromise(
          runBench({ sections: ["scenarios"], durationSeconds: 0.3, connections: 2, warmupSeconds: 0, steadySeconds: 1, scenarios })
        )
        assert.deepStrictEqual(figures.runs.map((run) => run.label), ["Hedgerow in process, in-memory store"])
        assertClean(figures, scenarios)
        for (const scenario of figures.runs[0]!.scenarios) {
          assert.strictEqual(scenario.memoryAfterHedgerow.length, 1)
          assert.isAbove(scenario.memoryAfterHedgerow[0]!.heapUsedBytes ?? 0, 0)
        }
        const report = formatBench(figures)
        assert.include(report, "=== Hedgerow in process, in-memory store ===")
        assert.include(report, "hedgerow/baseline")
        assert.include(report, "HttpApi alone/baseline")
        assert.include(report, "Process memory after the Hedgerow run: RSS")
      })
      return
    }

    const serverUrl = testDatabaseUrl()!
    it("measures PostgreSQL with one and with two server processes, and drops its databases", async () => {
      const progress: Array<string> = []
      const figures = await Effect.runPromise(runBench({
        sections: ["scenarios"],
        durationSeconds: 0.5,
        connections: 4,
        warmupSeconds: 0,
        steadySeconds: 1,
        databaseUrl: serverUrl,
        scenarios: postgresScenarios,
        progress: (line) => progress.push(line)
      }))
      assert.deepStrictEqual(figures.runs.map((run) => run.label), ["PostgreSQL, 1 server process", "PostgreSQL, 2 server processes"])
      assert.deepStrictEqual(figures.runs.map((run) => run.serverProcesses), [1, 2])
      assertClean(figures, postgresScenarios)
      for (const run of figures.runs) {
        for (const scenario of run.scenarios) {
          // One resident-memory reading per server process, and the load reached every one of them.
          assert.strictEqual(scenario.memoryAfterHedgerow.length, run.serverProcesses)
          assert.strictEqual(scenario.hedgerowPerServer.length, run.serverProcesses)
          assert.isTrue(scenario.hedgerowPerServer.every((completed) => completed > 0), `${run.label}: ${scenario.name}`)
          assert.strictEqual(scenario.hedgerowPerServer.reduce((a, b) => a + b, 0), scenario.hedgerow.completed)
        }
      }
      const report = formatBench(figures)
      assert.include(report, "=== PostgreSQL, 1 server process ===")
      assert.include(report, "=== PostgreSQL, 2 server processes ===")
      assert.include(report, "Server process memory after the Hedgerow run (resident): server 1 (pid ")
      assert.include(report, "Hedgerow requests completed per server process: ")

      // Each run made its own database and none outlives it.
      const created = progress.flatMap((line) => /created database (\S+)/.exec(line)?.[1] ?? [])
      assert.strictEqual(created.length, 2)
      const left = await onServer(serverUrl, (sql) => sql<{ datname: string }>`SELECT datname FROM pg_database WHERE datname IN ${sql.in(created)}`)
      assert.deepStrictEqual(left, [])
    }, BENCH_RUN_MS)

    it("names the CREATEDB privilege when its user may not create a database", async () => {
      const role = `hedgerow_bench_nocreatedb_${randomBytes(4).toString("hex")}`
      await onServer(serverUrl, (sql) => sql.unsafe(`CREATE ROLE "${role}" LOGIN NOCREATEDB`))
      try {
        const url = new URL(serverUrl)
        url.username = role
        url.password = ""
        const error = await Effect.runPromise(Effect.flip(
          runBench({
            sections: ["scenarios"],
            durationSeconds: 0.3,
            connections: 1,
            warmupSeconds: 0,
            steadySeconds: 1,
            databaseUrl: url.toString(),
            scenarios: postgresScenarios
          })
        ))
        assert.strictEqual(error._tag, "BenchFailed")
        assert.include(error.message, "needs the CREATEDB privilege")
        assert.notInclude(error.message, "\n")
      } finally {
        await onServer(serverUrl, (sql) => sql.unsafe(`DROP ROLE IF EXISTS "${role}"`))
      }
    })
  })

  it("times starts and commands and reads one server's memory through a steady load and fuzzed writes", async () => {
    const progress: Array<string> = []
    const figures = await Effect.runPromise(runBench({
      sections: ["cli", "memory"],
      durationSeconds: 0.3,
      connections: 4,
      warmupSeconds: 0.3,
      steadySeconds: 1,
      memory: { fuzzWrites: 200, seedFlags: 500, settleSeconds: 0.3 },
      progress: (line) => progress.push(line)
    }))
    assert.deepStrictEqual(figures.runs, [])

    const cli = figures.startAndCli!
    for (const figure of [cli.firstStartMs, cli.startMs, cli.versionMs, cli.helpMs, cli.flagsListMs]) assert.isAbove(figure, 0)

    const memory = figures.serverMemory!
    for (
      const figure of [
        memory.afterWarmupBytes, memory.steadyStartBytes, memory.steadyEndBytes, memory.steadyPeakBytes,
        memory.beforeFuzzBytes, memory.afterFuzzBytes, memory.settledBytes
      ]
    ) assert.isAbove(figure, 0)
    assert.isAbove(memory.steady.completed, 0)
    assert.strictEqual(failures(memory.steady), 0, JSON.stringify(memory.steady.statusCodes))
    // Only successes, reads and changes alike (every request of the mix answers 200).
    assert.deepStrictEqual(Object.keys(memory.steady.statusCodes), ["200"])
    assert.deepStrictEqual(memory.mix, ["GET flag", "GET flags", "GET flag", "PATCH name", "GET flag", "GET flags", "GET flag", "PATCH filters"])
    const { fuzz } = memory
    assert.strictEqual(Object.values(fuzz.statusCodes).reduce((a, b) => a + b, 0) + fuzz.errors, 200)
    assert.strictEqual(serverErrors(fuzz), 0, JSON.stringify(fuzz.statusCodes))
    assert.strictEqual(fuzz.errors, 0, fuzz.errorSamples.join("; "))
    assert.isAbove(fuzz.statusCodes["400"] ?? 0, 0)
    assert.isAbove(fuzz.valid, 0)
    assert.strictEqual(failedRequests(figures), 0)

    const report = formatBench(figures)
    assert.include(report, "=== Start and command line ===")
    assert.include(report, "=== Memory of one `hedgerow serve` ===")
    assert.include(report, "=== Targets ===")
    assert.match(report, /\d+ of 8 targets met\./)
    // Each section made a data dir of its own, gone with it.
    const dataDirs = progress.flatMap((line) => /new data dir, (\S+) \(removed at the end\)/.exec(line)?.[1] ?? [])
    assert.strictEqual(dataDirs.length, 2)
    assert.isTrue(dataDirs.every((dataDir) => !existsSync(dataDir)), dataDirs.join(", "))
  })

  it("measures `hedgerow serve` as shipped and a baseline process, with the CPU each spent, and removes its data dir", async () => {
    const progress: Array<string> = []
    // Two pairs show the order of the starts. A new server gets a second: its first answer can take
    // longer than a few hundred ms on a busy machine, and a run with no answer has no figure.
    const figures = await Effect.runPromise(runBench({
      sections: ["shipped"],
      durationSeconds: 0.8,
      connections: 2,
      warmupSeconds: 0.2,
      startSeconds: 1,
      logPairs: 2,
      steadySeconds: 1,
      progress: (line) => progress.push(line)
    }))
    assert.deepStrictEqual(figures.runs, [])
    const shipped = figures.shipped!
    assert.deepStrictEqual(shipped.scenarios.map((scenario) => scenario.name), [
      "GET project",
      "GET flags, a project of 100 flags",
      "POST /flags?v=2, a project of 100 flags",
      "GET definitions for local evaluation, a project of 100 flags",
      "GET definitions again, unchanged (If-None-Match: 304), a project of 100 flags",
      "GET flag",
      "PATCH flag",
      "POST flag",
      "POST /batch/, 1,000 $feature_flag_called events"
    ])
    const measured = [
      ...shipped.scenarios.flatMap((scenario) => [scenario.hedgerow, scenario.baseline]),
      ...[...shipped.logged, ...shipped.unlogged].flatMap((start) => [start.first, ...start.warm])
    ]
    assert.strictEqual(shipped.logged.length, 2)
    assert.strictEqual(shipped.unlogged.length, 2)
    for (const start of [...shipped.logged, ...shipped.unlogged]) assert.strictEqual(start.warm.length, WARM_ROUNDS)
    // The logged server is started first in every other pair.
    const starts = progress.flatMap((line) => /starting `hedgerow serve` again, pair (\d+) of \d+, request log (at its default|off)/.exec(line)?.slice(1) ?? [])
    assert.deepStrictEqual(starts, ["1", "at its default", "1", "off", "2", "off", "2", "at its default"])
    for (const run of measured) {
      assert.isAbove(run.load.completed, 0)
      // Read from /proc on Linux; the report shows n/a elsewhere.
      if (process.platform === "linux") assert.isAbove(cpuMicrosPerRequest(run) ?? 0, 0)
    }
    // The list is a full page of the seeded flags.
    assert.isAbove(shipped.scenarios[1]!.responseBytes, 100_000)
    assert.strictEqual(failedRequests(figures), 0)

    const report = formatBench(figures)
    assert.include(report, "=== Hedgerow as shipped: `hedgerow serve` on a data dir ===")
    assert.include(report, "as shipped: GET flag, the request log's share of its CPU")
    assert.match(report, /\d+ of 8 targets met\./)
    const dataDirs = progress.flatMap((line) => /new data dir, (\S+);/.exec(line)?.[1] ?? [])
    assert.strictEqual(dataDirs.length, 1)
    assert.isFalse(existsSync(dataDirs[0]!), dataDirs[0])
  }, BENCH_RUN_MS)

  // Without PostgreSQL's programs the section is skipped and says why; under CI that fails the test, as the
  // other PostgreSQL suites fail there without a server.
  it.runIf(postgresBinaries() !== undefined || process.env.CI === "true")(
    "measures `hedgerow serve` on a PostgreSQL cluster it starts, with one and two processes, the CPU of both and of the cluster, and removes the cluster",
    async () => {
      const progress: Array<string> = []
      // Each load runs long enough for both servers to answer one of its two connections on a busy
      // machine: a server with no answer in a run fails the test.
      const figures = await Effect.runPromise(runBench({
        sections: ["postgres"],
        durationSeconds: 0.8,
        connections: 2,
        warmupSeconds: 0.2,
        steadySeconds: 1,
        progress: (line) => progress.push(line)
      }))
      const postgres = figures.postgres!
      if ("skipped" in postgres) return assert.fail(postgres.skipped)
      assert.isTrue(postgres.ownCluster)
      assert.deepStrictEqual(postgres.scenarios.map((scenario) => scenario.name), shippedScenarios.map((scenario) => scenario.name))
      let databaseSeconds = 0
      for (const scenario of postgres.scenarios) {
        assert.isAbove(scenario.baseline.load.completed, 0, scenario.name)
        assert.deepStrictEqual(scenario.rows.map((row) => row.processes), [1, 2])
        for (const { processes, measured, rssBytes, completedPerServer } of scenario.rows) {
          const where = `${scenario.name}, ${processes}`
          assert.isAbove(measured.load.completed, 0, where)
          // The load reached every server, and each one's memory was read.
          assert.strictEqual(completedPerServer.length, processes, where)
          assert.isTrue(completedPerServer.every((completed) => completed > 0), where)
          assert.strictEqual(completedPerServer.reduce((a, b) => a + b, 0), measured.load.completed, where)
          assert.isTrue(rssBytes.length === processes && rssBytes.every((bytes) => bytes > 0), where)
          if (process.platform === "linux") {
            assert.isAbove(cpuMicrosPerRequest(measured) ?? 0, 0, where)
            // Read for every run; a request the servers answer from memory may cost the cluster nothing.
            assert.isDefined(measured.databaseCpuSeconds, where)
            databaseSeconds += measured.databaseCpuSeconds ?? 0
          }
        }
      }
      if (process.platform === "linux") assert.isAbove(databaseSeconds, 0)
      assert.strictEqual(failedRequests(figures), 0)

      const report = formatBench(figures)
      assert.include(report, "=== Hedgerow as shipped on PostgreSQL: `hedgerow serve` with DATABASE_URL ===")
      assert.include(report, "2 processes/baseline")
      // The cluster and the servers' logs are gone with the run.
      const dirs = progress.flatMap((line) => /(?:new cluster|new directory), (\S+) \(removed at the end\)/.exec(line)?.[1] ?? [])
      assert.strictEqual(dirs.length, 2, progress.join("\n"))
      assert.isTrue(dirs.every((dir) => !existsSync(dir)), dirs.join(", "))
    },
    BENCH_RUN_MS
  )

  it("prints the PostgreSQL rows' database CPU as n/a where it was not read, and says why the section did not run", () => {
    const bench = { durationSeconds: 1, connections: 1, warmupSeconds: 0, cpus: 2, runs: [] }
    const row = (processes: number, databaseCpuSeconds: number | undefined) => ({
      processes,
      measured: { load: load(1000, 1000), serverCpuSeconds: 0.1, databaseCpuSeconds },
      rssBytes: Array.from({ length: processes }, () => 64 * 1024 * 1024),
      completedPerServer: Array.from({ length: processes }, () => 1000 / processes)
    })
    const figures = (ownCluster: boolean) => ({
      database: "PostgreSQL 15",
      ownCluster,
      seededFlags: 100,
      scenarios: [{
        name: "GET flag",
        method: "GET",
        path: "/flag",
        status: 200,
        responseBytes: 10,
        baseline: { load: load(4000, 4000), serverCpuSeconds: 0.04 },
        rows: [row(1, ownCluster ? 0.05 : undefined), row(2, ownCluster ? 0.06 : undefined)]
      }]
    })
    const cells = (report: string, target: string) => report.split("\n").find((line) => line.startsWith(target))!.split(/\s{2,}/)
    const own = formatBench({ ...bench, postgres: figures(true) })
    // target, CPU µs/req, req/s, p50, p99, non-2xx, errors, database µs/req, RSS
    assert.deepStrictEqual(cells(own, "hedgerow serve, 1 process"), ["hedgerow serve, 1 process", "100", "1,000", "1.00", "2.00", "0", "0", "50", "64.0 MiB"])
    assert.deepStrictEqual(cells(own, "hedgerow serve, 2 processes").slice(-2), ["60", "64.0 MiB + 64.0 MiB"])
    assert.include(own, "Requests answered by each of the 2 processes: 500 / 500")
    const given = formatBench({ ...bench, postgres: figures(false) })
    assert.deepStrictEqual(cells(given, "hedgerow serve, 1 process").slice(-2), ["n/a", "64.0 MiB"])
    assert.include(formatBench({ ...bench, postgres: { skipped: NO_BINARIES } }), `Not run: ${NO_BINARIES}.`)
  })

  it("measures the embedding's flags.getAll beside posthog-node's local getAllFlags, their answers alike", async () => {
    const progress: Array<string> = []
    const figures = await Effect.runPromise(runBench({
      sections: ["embedding"],
      durationSeconds: 0.3,
      connections: 1,
      warmupSeconds: 0,
      steadySeconds: 1,
      embedding: { people: 40, warmupPasses: 1, passes: 2 },
      progress: (line) => progress.push(line)
    }))
    assert.deepStrictEqual(figures.runs, [])
    const embedding = figures.embedding!
    assert.strictEqual(embedding.flags, 100)
    assert.strictEqual(embedding.people, 40)
    assert.strictEqual(embedding.compared, 40 * 100)
    assert.strictEqual(embedding.mismatches, 0, embedding.mismatchSamples.join("; "))
    // The people tell the flags' answers apart: neither all off nor all on.
    assert.isAbove(embedding.enabled, 0)
    assert.isBelow(embedding.enabled, embedding.compared)
    assert.isAbove(embedding.multivariateFlags, 0)
    assert.isAbove(embedding.groupFlags, 0)
    for (const cost of [embedding.embedding, embedding.posthogNode]) {
      assert.isAbove(cost.cpuMicros, 0)
      assert.isAbove(cost.wallMicros, 0)
    }
    const report = formatBench(figures)
    assert.include(report, "=== Hedgerow embedded: flags read in the application's process ===")
    assert.include(report, "the two agree on every one.")
    assert.include(report, "embedded: flags.getAll of 100 flags, CPU per call")
    assert.match(report, /\d+ of 1 targets met\./)
    assert.isTrue(progress.some((line) => line.startsWith("embedded: ")))
  })

  it("judges the embedding's CPU per call against 60 µs, and says when the two evaluators answered apart", () => {
    const figures: EmbeddingFigures = {
      flags: 100,
      multivariateFlags: 10,
      groupFlags: 10,
      people: 2,
      warmupPasses: 1,
      passes: 1,
      posthogNodeVersion: "5.70.0",
      embedding: { cpuMicros: 59.96, wallMicros: 70 },
      posthogNode: { cpuMicros: 1_000, wallMicros: 900 },
      compared: 200,
      enabled: 50,
      mismatches: 1,
      mismatchSamples: ["person-1 embedded-person-0: embedding true, posthog-node false"]
    }
    assert.deepStrictEqual(embeddingChecks(figures).map((c) => [c.figure, c.value, c.target?.met]), [
      ["embedded: flags.getAll of 100 flags, CPU per call", "60.0 µs", true],
      ["embedded: posthog-node's local getAllFlags of the same flags, CPU per call", "1,000.0 µs", undefined]
    ])
    const report = formatBench({ durationSeconds: 1, connections: 1, warmupSeconds: 0, cpus: 2, runs: [], embedding: figures })
    assert.include(report, "1 DIFFER, so these figures are not comparable. First: person-1 embedded-person-0: embedding true, posthog-node false")
    assert.include(report, "1 of 1 targets met.")
    // The run's posthog-node beside the targets machine's, to weigh the target by.
    assert.include(
      report,
      "Pace of this machine: a call of posthog-node's local getAllFlags took 1,000 µs of CPU here and 1,245 µs on the machine the targets were set on (0.80x)."
    )
  })

  it("reads a process's CPU ticks past a command name with spaces and parentheses", () => {
    const stat = "4242 (node (x) y) S 1 4242 4242 0 -1 4194560 5000 0 0 0 1234 567 0 0 20 0 11 0 100 1000000 5000"
    assert.strictEqual(cpuTicksOf(stat), 1234 + 567)
    assert.strictEqual(cpuTicksOf("garbage"), undefined)
  })

  it("judges the request log's share and a new server's rate from the shipped figures", () => {
    const getFlag = {
      name: "GET flag",
      method: "GET",
      path: "/flag",
      status: 200,
      responseBytes: 10,
      hedgerow: { load: load(1000, 1000), serverCpuSeconds: 0.08 },
      baseline: { load: load(4000, 4000), serverCpuSeconds: 0.04 },
      cpuGoal: atMost(100)
    }
    const figures: ShippedFigures = {
      seededFlags: 100,
      scenarios: [getFlag],
      probeScenario: "GET flag",
      startSeconds: 5,
      // Least CPU per request: 100 and 120 µs logged, 96 and 115.6 with the log off; 3.8 % apart on the means.
      logged: [
        {
          first: { load: load(700, 700) },
          warm: [{ load: load(1000, 1000), serverCpuSeconds: 0.11 }, { load: load(1000, 1000), serverCpuSeconds: 0.1 }]
        },
        {
          first: { load: load(800, 800) },
          warm: [{ load: load(1000, 1000), serverCpuSeconds: 0.12 }, { load: load(1000, 1000), serverCpuSeconds: 0.13 }]
        }
      ],
      unlogged: [
        {
          first: { load: load(800, 800) },
          warm: [{ load: load(1000, 1000), serverCpuSeconds: 0.12 }, { load: load(1000, 1000), serverCpuSeconds: 0.096 }]
        },
        {
          first: { load: load(900, 900) },
          warm: [{ load: load(1000, 1000), serverCpuSeconds: 0.1156 }, { load: load(1000, 1000), serverCpuSeconds: 0.13 }]
        }
      ]
    }
    assert.strictEqual(cpuMicrosPerRequest(getFlag.hedgerow), 80)
    assert.strictEqual(cpuMicrosPerRequest(figures.logged[0]!.first), undefined)
    // A new start's rate: 70 % and 80 % of each one's warm rate.
    assert.deepStrictEqual(shippedChecks(figures).map((c) => [c.figure, c.value, c.target?.met]), [
      ["as shipped: GET flag, server CPU per request", "80 µs", true],
      ["as shipped: GET flag, the request log's share of its CPU", "3.8 %", true],
      ["as shipped: GET flag, req/s over the first 5 s after a start / warm", "75 %", false]
    ])
    // The bare process's answer beside the targets machine's: 10 µs here, 21 to 24 there.
    const report = formatBench({ durationSeconds: 1, connections: 1, warmupSeconds: 0, cpus: 2, runs: [], shipped: figures })
    assert.include(
      report,
      "Pace of this machine: a bare node:http process's answer to GET flag took 10 µs of CPU here and 21–24 µs on the machine the targets were set on (0.44x)."
    )
  })

  it("runs all but the in-process scenarios by default, and all of them on PostgreSQL", () => {
    assert.deepStrictEqual(defaultSections({}), ["shipped", "postgres", "embedding", "cli", "memory"])
    assert.deepStrictEqual(defaultSections({ databaseUrl: "postgres://localhost/hedgerow" }), ["shipped", "postgres", "embedding", "scenarios", "cli", "memory"])
    const invocation = parseInvocation(["--only", "memory,shipped"])
    assert.deepStrictEqual(invocation._tag === "run" ? invocation.options.sections : undefined, ["shipped", "memory"])
  })

  it("takes --database-url as the PostgreSQL server to run on", () => {
    const invocation = parseInvocation(["--database-url", "postgres://localhost/hedgerow"])
    assert.strictEqual(invocation._tag, "run")
    assert.strictEqual(invocation._tag === "run" ? invocation.options.databaseUrl : undefined, "postgres://localhost/hedgerow")
    assert.strictEqual(parseInvocation(["--database-url", "mysql://localhost/hedgerow"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--database-url", "localhost"])._tag, "invalid")
  })

  it("takes --only and --steady", () => {
    const invocation = parseInvocation(["--only", "memory,scenarios", "--steady", "12"])
    assert.strictEqual(invocation._tag, "run")
    if (invocation._tag !== "run") return
    // The run keeps its own order.
    assert.deepStrictEqual(invocation.options.sections, ["scenarios", "memory"])
    assert.strictEqual(invocation.options.steadySeconds, 12)
    const defaults = parseInvocation([])
    assert.strictEqual(defaults._tag === "run" ? defaults.options.sections : "not run", undefined)
    assert.strictEqual(defaults._tag === "run" ? defaults.options.steadySeconds : 0, 300)
  })

  it("rejects malformed flags", () => {
    assert.strictEqual(parseInvocation(["--only", "scenarios,disk"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--only", ""])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--steady", "0"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--connections", "0"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--duration", "soon"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--bogus"])._tag, "invalid")
  })
})
