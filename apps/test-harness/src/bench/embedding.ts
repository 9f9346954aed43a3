import { type FlagValue, openHedgerow } from "@hedgerow/http-server"
import { Effect } from "effect"
import { PostHog } from "posthog-node"
import { call } from "./api-call.ts"
import { BenchFailed } from "./bench-failed.ts"
import { GROUP_TYPE, type PersonOptions, type WorkloadFlag, workloadFlags, type WorkloadPerson, workloadPeople } from "./embedding-workload.ts"
import { flagsPath } from "./flag-scenarios.ts"
import { atMost } from "./goals.ts"
import { fixtureAt, HedgerowFixture, tenantOf } from "./hedgerow-target.ts"
import { loopbackServer } from "./loopback-server.ts"

/** Where the application mounts Hedgerow's API on its own server. */
const BASE_PATH = "/hedgerow"

export const embeddingGoals = {
  /** CPU of one `flags.getAll` of the project's 100 flags, in µs. */
  getAllCpuMicros: atMost(60)
} as const

export interface EmbeddingOptions {
  /** Flags in the project (100). */
  readonly flags: number
  /** People evaluated, one call each per pass (2,000). */
  readonly people: number
  /**
   * Unreported passes over the people after the one that compares the answers, so that both evaluators
   * are compiled and warm (2).
   */
  readonly warmupPasses: number
  /** Measured passes over the people (5). */
  readonly passes: number
}

export const defaultEmbeddingOptions: EmbeddingOptions = { flags: 100, people: 2_000, warmupPasses: 2, passes: 5 }

/** One evaluator's cost of a call, over every measured pass. */
export interface CallCost {
  /** The bench process's user and system CPU (all its threads) per call, in µs. */
  readonly cpuMicros: number
  readonly wallMicros: number
}

export interface EmbeddingFigures {
  readonly flags: number
  readonly multivariateFlags: number
  readonly groupFlags: number
  readonly people: number
  readonly warmupPasses: number
  readonly passes: number
  /** The version of posthog-node compared with. */
  readonly posthogNodeVersion: string
  readonly embedding: CallCost
  readonly posthogNode: CallCost
  /** Answers compared, people × flags (a flag one side left out counts, as a mismatch). */
  readonly compared: number
  /** Of those, the embedding's answers that are on (true or a variant). */
  readonly enabled: number
  /** Answers in which the two differ; the figures only mean something at 0. */
  readonly mismatches: number
  /** The first few of them, as "person flag: embedding …, posthog-node …". */
  readonly mismatchSamples: ReadonlyArray<string>
}

const failed = (reason: string) => new BenchFailed({ scenario: "embedded", reason })

const MISMATCH_SAMPLES = 5

type Evaluate = (distinctId: string, options: PersonOptions) => Promise<Record<string, FlagValue>>

/**
 * The project: the group type the group flags read, then each flag through the API, as a team makes
 * them; posthog-node reads the same definitions from it.
 */
const makeProject = (flags: ReadonlyArray<WorkloadFlag>) =>
  Effect.gen(function*() {
    const { projectId } = yield* HedgerowFixture
    yield* call("POST", `/api/projects/${projectId}/groups_types/`, { group_type: GROUP_TYPE })
    yield* Effect.forEach(flags, (flag) => call("POST", flagsPath(projectId), flag), { discard: true })
  })

/** Every answer of both evaluators for every person, side by side. */
const compare = async (people: ReadonlyArray<WorkloadPerson>, ours: Evaluate, theirs: Evaluate) => {
  let compared = 0
  let enabled = 0
  let mismatches = 0
  const samples: Array<string> = []
  for (const [distinctId, options] of people) {
    const [a, b] = [await ours(distinctId, options), await theirs(distinctId, options)]
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      compared++
      if (a[key] !== undefined && a[key] !== false) enabled++
      if (a[key] === b[key]) continue
      mismatches++
      if (samples.length < MISMATCH_SAMPLES) samples.push(`${distinctId} ${key}: embedding ${a[key]}, posthog-node ${b[key]}`)
    }
  }
  return { compared, enabled, mismatches, mismatchSamples: samples }
}

interface Spent {
  cpu: number
  wall: number
}

/** One call per person, in turn; the CPU and wall time it took, in µs. */
const pass = async (people: ReadonlyArray<WorkloadPerson>, evaluate: Evaluate): Promise<Spent> => {
  const cpu = process.cpuUsage()
  const wall = performance.now()
  for (const [distinctId, options] of people) await evaluate(distinctId, options)
  const used = process.cpuUsage(cpu)
  return { cpu: used.user + used.system, wall: (performance.now() - wall) * 1_000 }
}

/**
 * Both evaluators over every person, in turns of a pass each, so that whatever else the machine does
 * falls on both alike: the warm-up passes first, then the measured ones, summed per evaluator.
 */
const measureTurns = async (people: ReadonlyArray<WorkloadPerson>, embedding: Evaluate, posthogNode: Evaluate, options: EmbeddingOptions) => {
  const spent = { embedding: { cpu: 0, wall: 0 }, posthogNode: { cpu: 0, wall: 0 } }
  const add = (into: Spent, took: Spent) => {
    into.cpu += took.cpu
    into.wall += took.wall
  }
  for (let i = 0; i < options.warmupPasses + options.passes; i++) {
    const ours = await pass(people, embedding)
    const theirs = await pass(people, posthogNode)
    if (i < options.warmupPasses) continue
    add(spent.embedding, ours)
    add(spent.posthogNode, theirs)
  }
  const calls = people.length * options.passes
  const perCall = ({ cpu, wall }: Spent): CallCost => ({ cpuMicros: cpu / calls, wallMicros: wall / calls })
  return { embedding: perCall(spent.embedding), posthogNode: perCall(spent.posthogNode) }
}

/**
 * Hedgerow embedded in this process (openHedgerow, in-memory store, its API served on loopback as an
 * application mounts it) with a project of flags made through that API, and posthog-node evaluating
 * the same flags locally from the definitions it loads there. First both answer for every person and
 * the answers are compared; then each reads every flag for every person, pass after pass, in turns.
 */
export const measureEmbedding = (options: EmbeddingOptions, progress: (line: string) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const hedgerow = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => openHedgerow({ store: {}, basePath: BASE_PATH }), catch: (error) => failed(`opening: ${String(error)}`) }),
      (opened) => Effect.promise(() => opened.close())
    )
    const { bootstrapped } = hedgerow
    if (bootstrapped === undefined) return yield* failed("the in-memory store was not bootstrapped")
    const host = `${yield* loopbackServer(hedgerow.handler)}${BASE_PATH}`
    const { flags, multivariate, group } = workloadFlags(options.flags)
    progress(`making a project of ${flags.length} flags through the embedded API at ${host}`)
    yield* makeProject(flags).pipe(
      Effect.provideService(HedgerowFixture, fixtureAt(tenantOf(bootstrapped), host)),
      Effect.mapError((error) => failed(`making the project: ${error.message}`))
    )

    const client = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new PostHog(hedgerow.project.api_token, {
          host,
          personalApiKey: bootstrapped.personal_api_key,
          // The definitions are loaded once; nothing changes them during the run.
          featureFlagsPollingInterval: null,
          disableGeoip: true
        })
      ),
      (opened) => Effect.promise(() => opened.shutdown())
    )
    const ready = yield* Effect.promise(() => client.waitForLocalEvaluationReady(10_000))
    if (!ready) return yield* failed("posthog-node did not load the flag definitions within 10 s")

    const people = workloadPeople(options.people)
    const ours: Evaluate = (distinctId, flagOptions) => hedgerow.flags.getAll(distinctId, flagOptions)
    const theirs: Evaluate = (distinctId, flagOptions) => client.getAllFlags(distinctId, { ...flagOptions, onlyEvaluateLocally: true })
    progress(`comparing both evaluators' answers for ${people.length} people`)
    const agreement = yield* Effect.promise(() => compare(people, ours, theirs))
    if (agreement.compared !== people.length * flags.length) {
      return yield* failed(`expected ${flags.length} flags per person, compared ${agreement.compared} answers for ${people.length} people`)
    }
    progress(`${options.warmupPasses} passes of warm-up and ${options.passes} measured, each evaluator in turn`)
    const costs = yield* Effect.promise(() => measureTurns(people, ours, theirs, options))

    return {
      flags: flags.length,
      multivariateFlags: multivariate,
      groupFlags: group,
      people: people.length,
      warmupPasses: options.warmupPasses,
      passes: options.passes,
      posthogNodeVersion: client.getLibraryVersion(),
      ...costs,
      ...agreement
    } satisfies EmbeddingFigures
  }))
