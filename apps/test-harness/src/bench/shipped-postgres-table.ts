import { columns, integer, mebibytes } from "./checks.ts"
import type { PostgresFigures, PostgresRow, PostgresScenarioFigures, PostgresSkipped } from "./shipped-postgres.ts"
import { microsPerRequest } from "./shipped.ts"
import { microsCell, ratioRow, row, ROW_HEADS, scenarioHeading } from "./shipped-table.ts"

const HEADING = "=== Hedgerow as shipped on PostgreSQL: `hedgerow serve` with DATABASE_URL ==="

const deployment = (processes: number) => `${processes} process${processes === 1 ? "" : "es"}`

/** The shipped section's cells, then the database's CPU per request and the servers' resident memory. */
const deploymentRow = ({ processes, measured, rssBytes }: PostgresRow) => [
  ...row(`hedgerow serve, ${deployment(processes)}`, measured),
  microsCell(microsPerRequest(measured.databaseCpuSeconds, measured)),
  rssBytes.map(mebibytes).join(" + ")
]

const scenarioBlock = (scenario: PostgresScenarioFigures) => [
  "",
  scenarioHeading(scenario),
  ...columns([
    [...ROW_HEADS, "database µs/req", "RSS"],
    ...scenario.rows.map(deploymentRow),
    [...row("baseline", scenario.baseline), "", ""],
    ...scenario.rows.map((each) => [...ratioRow(`${deployment(each.processes)}/baseline`, each.measured, scenario.baseline), "", ""])
  ]),
  ...scenario.rows.filter((each) => each.processes > 1).map((each) =>
    `Requests answered by each of the ${deployment(each.processes)}: ${each.completedPerServer.map(integer).join(" / ")}`
  )
]

export const shippedOnPostgresBlock = (figures: PostgresFigures | PostgresSkipped) =>
  "skipped" in figures ? ["", HEADING, `Not run: ${figures.skipped}.`] : [
    "",
    HEADING,
    `\`hedgerow serve\` as an operator starts it, its request log at the default level written to a file, with DATABASE_URL set: on`,
    `${figures.database}, a new database seeded with ${integer(figures.seededFlags)} flags served by one process, then a new one`,
    "seeded alike served by two processes sharing it, the connections dealt out over them in turn.",
    "CPU µs/req is the server processes' user and system time over the measured run, summed, divided by the requests answered;",
    figures.ownCluster
      ? "database µs/req is the same of the cluster's processes, the postmaster and every process under it."
      : "database µs/req is n/a: the CPU of a server the bench did not start is not read.",
    "RSS is each server process's resident memory after its run. The baseline process answers what one process answered.",
    "The CPU targets of the embedded store do not apply here.",
    ...figures.scenarios.flatMap(scenarioBlock)
  ]
