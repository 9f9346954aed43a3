import { type Check, check, checkTable, columns, finerMicroseconds, integer, percent, ratio, tenths } from "./checks.ts"
import { type CallCost, type EmbeddingFigures, embeddingGoals } from "./embedding.ts"

const row = (target: string, cost: CallCost) => [target, tenths(cost.cpuMicros), tenths(cost.wallMicros)]

export const embeddingChecks = (figures: EmbeddingFigures): ReadonlyArray<Check> => [
  check(
    `embedded: flags.getAll of ${integer(figures.flags)} flags, CPU per call`,
    figures.embedding.cpuMicros,
    finerMicroseconds,
    embeddingGoals.getAllCpuMicros
  ),
  check(`embedded: posthog-node's local getAllFlags of the same flags, CPU per call`, figures.posthogNode.cpuMicros, finerMicroseconds)
]

const agreementLine = (figures: EmbeddingFigures) =>
  `Answers compared: ${integer(figures.compared)} (${integer(figures.people)} people × ${integer(figures.flags)} flags), ` +
  `${percent(figures.compared === 0 ? 0 : figures.enabled / figures.compared)} of them on; ` +
  (figures.mismatches === 0
    ? "the two agree on every one."
    : `${integer(figures.mismatches)} DIFFER, so these figures are not comparable. First: ${figures.mismatchSamples.join("; ")}`)

export const embeddingBlock = (figures: EmbeddingFigures) => [
  "",
  "=== Hedgerow embedded: flags read in the application's process ===",
  `openHedgerow in the bench process on an in-memory store, its API served on loopback, with a project of ${integer(figures.flags)} flags`,
  `made through that API: one condition and a rollout each, ${integer(figures.multivariateFlags)} of them multivariate and ${integer(figures.groupFlags)} on a company's properties,`,
  `the rest on the person's. ${integer(figures.people)} people, each with their properties and company. posthog-node ${figures.posthogNodeVersion} evaluates`,
  "the same flags for the same people locally (getAllFlags, onlyEvaluateLocally), its definitions loaded from that API.",
  `Per call: the bench process's user and system CPU (process.cpuUsage, all its threads) and wall time over ${figures.passes} passes`,
  `over the people, after the pass that compares the answers and ${figures.warmupPasses} of warm-up, the two taking turns pass by pass.`,
  ...columns([
    ["target", "CPU µs/call", "wall µs/call"],
    row("flags.getAll", figures.embedding),
    row("posthog-node getAllFlags, local", figures.posthogNode),
    [
      "flags.getAll/posthog-node",
      ratio(figures.embedding.cpuMicros, figures.posthogNode.cpuMicros),
      ratio(figures.embedding.wallMicros, figures.posthogNode.wallMicros)
    ]
  ]),
  agreementLine(figures),
  "",
  ...checkTable(embeddingChecks(figures))
]
