import { assert, describe, it } from "@effect/vitest"
import { Effect, Semaphore } from "effect"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { compileSteps } from "../src/evaluation/regex.ts"
import { RegexBudget } from "../src/evaluation/regex-budget.ts"
import { CompiledPatterns } from "../src/evaluation/regex-patterns.ts"
import type { Cohort } from "../src/cohorts/model.ts"
import { applyChanges, projectFlags } from "../src/feature-flags/live/project-flags.ts"
import type { StoredFlag } from "../src/feature-flags/model.ts"
import { type CarriedPatterns, type FlagSnapshot, snapshotOf, withPatternsCompiled } from "../src/flag-evaluation/snapshot.ts"
import type { FeatureFlagId, ProjectId } from "../src/shared/ids.ts"
import { compiledPatterns } from "./compiled-patterns.ts"
import { storedFlag } from "./stored-flag.ts"
import { threadSlices, threadTimed } from "./thread-slices.ts"
import { paced } from "./machine-pace.ts"

/**
 * A project's `regex` patterns are compiled with its prepared flags, before they are evaluated, a pattern
 * per turn of the event loop; a project keeps every pattern it uses, whatever other projects use.
 */

const TLDS = ["com", "org", "net", "io", "dev", "co\\.uk"]

/** Distinct patterns as people write them, each on the property it reads. */
const patternOf = (i: number, project: string): readonly [key: string, pattern: string] => {
  switch (i % 6) {
    case 0:
      return ["email", `@customer-${project}-${i}\\.${TLDS[i % TLDS.length]!}$`]
    case 1:
      return ["$current_url", `^https?://(www\\.)?${project}-${i}\\.example\\.(com|org)/`]
    case 2:
      return ["$app_version", `^${i}\\.(2|3)\\.\\d+$`]
    case 3:
      return ["plan", `(?i)${project}-plan-${i}|enterprise-${i}`]
    case 4:
      return ["$current_url", `/(settings|billing|${project}-team-${i})(/|$)`]
    default:
      return ["email", `^${project}-${i}-[a-z0-9]{4,}@example\\.com$`]
  }
}

const regexFlag = (i: number, project: string, pattern = patternOf(i, project)): StoredFlag =>
  storedFlag({
    id: (i + 1) as FeatureFlagId,
    key: `${project}-${i}`,
    filters: {
      groups: [{ properties: [{ key: pattern[0], operator: i % 5 === 0 ? "not_regex" : "regex", value: pattern[1], type: "person" }], rollout_percentage: 100 }]
    }
  })

const PATTERNS = 1_200

const projectOf = (id: number, name: string, carried?: CarriedPatterns) =>
  snapshotOf(id as ProjectId, projectFlags(Array.from({ length: PATTERNS }, (_, i) => regexFlag(i, name))), [], [], carried)

/** A person as SDKs describe one, whose values the patterns search. */
const personOf = (i: number) => ({
  distinct_id: `person-${i}`,
  person_properties: {
    email: `person-${i}@example.com`,
    $current_url: `https://www.example.com/settings/billing?page=${i}`,
    $app_version: "1.2.3",
    plan: "pro"
  }
})

/** The least time, in ms, of `times` evaluations of the snapshot, one person each, and whether any reported errors. */
const evaluated = (snapshot: FlagSnapshot, times: number) => {
  let least = Infinity
  let errors = false
  for (let i = 0; i < times; i++) {
    const [evaluation, ms] = threadTimed(() => evaluateFlags(snapshot.prepared, personOf(i)))
    errors ||= evaluation.errorsWhileComputingFlags
    least = Math.min(least, ms)
  }
  return { least, errors }
}

/** Compiles everything left, as whoever needs the snapshot would. */
const compileAll = (...snapshots: ReadonlyArray<FlagSnapshot>) =>
  Effect.runPromise(Effect.flatMap(Semaphore.make(1), (turn) =>
    Effect.forEach(snapshots, (snapshot) => withPatternsCompiled(snapshot, turn), { concurrency: "unbounded" })))

/** How many patterns a set of compiled patterns still has to compile (compiling them). */
const leftToCompile = (patterns: CompiledPatterns) => {
  let left = 0
  while (patterns.compileNext()) left++
  return left
}

describe("a project's compiled patterns", () => {
  it("are compiled before evaluation a pattern per turn of the event loop, however many requests wait", async () => {
    const first = projectOf(1, "a")
    const second = projectOf(2, "b")
    assert.isFalse(first.prepared.patterns.ready)
    // Compiles counted at each turn of the event loop (a turn runs what setImmediate queued before it).
    let compiles = 0
    for (const { prepared: { patterns } } of [first, second]) {
      const compileNext = patterns.compileNext.bind(patterns)
      patterns.compileNext = () => (compileNext() ? (compiles++, true) : false)
    }
    const perTurn: Array<number> = []
    let counted = 0
    let turning = true
    const turn = () => {
      perTurn.push(compiles - counted)
      counted = compiles
      if (turning) setImmediate(turn)
    }
    setImmediate(turn)
    // Three requests waiting for one project, one for another: they share the compiling, one pattern a turn.
    const { slices } = await threadSlices(() => compileAll(first, first, first, second))
    turning = false
    assert.isTrue(first.prepared.patterns.ready)
    assert.isTrue(second.prepared.patterns.ready)
    assert.strictEqual(compiles, 2 * PATTERNS)
    assert.isAtMost(Math.max(...perTurn), 1)
    // The thread's CPU time is read in steps of a few ms here: what it bounds is a turn that ran long.
    assert.isBelow(Math.max(...slices), paced(15), `longest of ${slices.length} slices`)
  })

  it("once compiled, evaluate 1,200 regex conditions in a few ms, whichever project evaluated last", async () => {
    const first = projectOf(1, "a")
    const second = projectOf(2, "b")
    await compileAll(first, second)
    // The first evaluation of a pattern builds its automaton's first states: evaluated once before timing.
    evaluated(first, 1)
    evaluated(second, 1)
    for (let round = 0; round < 3; round++) {
      for (const snapshot of [first, second]) {
        const { least, errors } = evaluated(snapshot, 5)
        assert.isFalse(errors)
        assert.isBelow(least, paced(15), `project ${snapshot.project}, round ${round}`)
      }
    }
    // Each project still holds every pattern it uses: nothing is left to compile.
    assert.strictEqual(leftToCompile(first.prepared.patterns), 0)
    assert.strictEqual(leftToCompile(second.prepared.patterns), 0)
    const answered = resultsByKey(evaluateFlags(first.prepared, personOf(7)))
    assert.strictEqual(answered.size, PATTERNS)
    assert.isTrue(answered.get("a-4")!.enabled)
    assert.isFalse(answered.get("a-7")!.enabled)
  })

  it("are taken over by the project's next snapshot where it still uses them: only new patterns are compiled", () => {
    const flags = projectFlags([regexFlag(0, "a"), regexFlag(1, "a"), regexFlag(2, "a")])
    const carried: CarriedPatterns = new Map()
    const first = snapshotOf(1 as ProjectId, flags, [], [], carried)
    assert.strictEqual(leftToCompile(first.prepared.patterns), 3)
    // One flag's pattern changes: the next snapshot compiles that one alone.
    applyChanges(flags, [2], [regexFlag(2, "a", ["email", "@changed\\.com$"])])
    const changed = snapshotOf(1 as ProjectId, flags, [], [], carried)
    assert.notStrictEqual(changed, first)
    assert.strictEqual(leftToCompile(changed.prepared.patterns), 1)
    // The flags read afresh (another object) take over the project's latest patterns.
    const reread = snapshotOf(1 as ProjectId, projectFlags(flags.entries.map((entry) => entry.flag)), [], [], carried)
    assert.strictEqual(leftToCompile(reread.prepared.patterns), 0)
    // Another project carries nothing over from this one.
    const other = snapshotOf(2 as ProjectId, projectFlags([regexFlag(0, "a")]), [], [], carried)
    assert.strictEqual(leftToCompile(other.prepared.patterns), 1)
  })

  it("hold the patterns of cohort definitions, however deep, and of early access, but not of inactive flags", () => {
    const leaf = (value: string) => ({ type: "person", key: "email", operator: "regex", value })
    const deep = Array.from({ length: 200 }, () => 0).reduce<Record<string, unknown>>(
      (inner) => ({ type: "AND", values: [inner] }),
      { type: "AND", values: [leaf("@deep\\.com$")] }
    )
    const cohort = (id: number, properties: unknown): Cohort =>
      ({ id, deleted: false, is_static: false, filters: { properties }, groups: [] }) as unknown as Cohort
    const cohorts = [
      cohort(1, { type: "OR", values: [{ type: "AND", values: [leaf("@acme\\.com$"), { type: "cohort", key: "id", value: 2 }] }] }),
      cohort(2, deep)
    ]
    const flags = projectFlags([
      storedFlag({
        id: 1 as FeatureFlagId,
        key: "early",
        filters: {
          groups: [{ properties: [{ type: "cohort", key: "id", value: 1 }], rollout_percentage: 100 }],
          super_groups: [{ properties: [leaf("^beta-")], rollout_percentage: 100 }]
        }
      }),
      storedFlag({
        id: 2 as FeatureFlagId,
        key: "off",
        active: false,
        filters: { groups: [{ properties: [leaf("@inactive\\.com$")], rollout_percentage: 100 }] }
      }),
      // A value that is not text: the SDK searches with its JavaScript text, the service with its JSON.
      storedFlag({
        id: 3 as FeatureFlagId,
        key: "listed",
        filters: { groups: [{ properties: [{ ...leaf(""), value: ["a", "b"] }], rollout_percentage: 100 }] }
      })
    ])
    const snapshot = snapshotOf(1 as ProjectId, flags, cohorts, [])
    const patterns = ["@acme\\.com$", "@deep\\.com$", "^beta-", "a,b", "[\"a\",\"b\"]"]
    assert.strictEqual(leftToCompile(snapshot.prepared.patterns), patterns.length)
    // Each is compiled: searching with it costs what it costs with the patterns compiled beforehand.
    const [found, beforehand] = [new RegexBudget(), new RegexBudget()]
    const reference = compiledPatterns(patterns)
    for (const pattern of patterns) {
      snapshot.prepared.patterns.finds(pattern, "x", found)
      reference.finds(pattern, "x", beforehand)
    }
    assert.strictEqual(found.left, beforehand.left)
  })
})

describe("a pattern evaluation meets uncompiled", () => {
  it("is compiled then, and charged to the evaluation's regex budget", () => {
    const pattern = "@example\\.com$"
    const compiled = compiledPatterns([pattern])
    const uncompiled = new CompiledPatterns([pattern])
    const [warm, cold] = [new RegexBudget(), new RegexBudget()]
    assert.isTrue(compiled.finds(pattern, "ann@example.com", warm))
    assert.isTrue(uncompiled.finds(pattern, "ann@example.com", cold))
    assert.strictEqual(warm.left - cold.left, compileSteps(pattern))
    // Compiled once: the next evaluation finds it.
    const [warmAgain, coldAgain] = [new RegexBudget(), new RegexBudget()]
    compiled.finds(pattern, "bob@example.com", warmAgain)
    uncompiled.finds(pattern, "bob@example.com", coldAgain)
    assert.strictEqual(coldAgain.left, warmAgain.left)
  })

  it("cannot stall an evaluation: past the budget, the flags left fail and are reported", () => {
    const prepared = prepareFlags(Array.from({ length: PATTERNS }, (_, i) => regexFlag(i, "cold")))
    const [evaluation, spent] = threadTimed(() => evaluateFlags(prepared, personOf(1)))
    assert.isTrue(evaluation.errorsWhileComputingFlags)
    const answered = evaluation.results.filter((result) => result !== null).length
    assert.isAbove(answered, 0)
    assert.isBelow(answered, PATTERNS)
    assert.isBelow(spent, paced(50))
  })
})
