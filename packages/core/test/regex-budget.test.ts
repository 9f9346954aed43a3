import { assert, describe, it } from "@effect/vitest"
import { RE2JS } from "re2js"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { RegexBudget, RegexBudgetExceeded } from "../src/evaluation/regex-budget.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { compiledPatterns, withPatternsCompiled } from "./compiled-patterns.ts"
import { random } from "./evaluation-cases.ts"
import { storedFlag } from "./stored-flag.ts"
import { paced } from "./machine-pace.ts"

/**
 * The regex work of one evaluation is bounded: a match the evaluation's budget cannot pay for is refused
 * before it runs long, its flag fails (left out, `errorsWhileComputingFlags`), and the patterns people
 * write on the values SDKs send stay far within it.
 */

/** Random `a`s and `b`s, then a line feed that keeps `$` from matching: every position stays in play. */
const hostileValue = (length: number, seed: number) => {
  const next = random(seed)
  return `${Array.from({ length }, () => (next() < 0.5 ? "a" : "b")).join("")}\n`
}

/** Milliseconds a call takes, and what it returned or threw. */
const timed = <T>(run: () => T): readonly [T | unknown, number] => {
  const started = performance.now()
  try {
    const outcome = run()
    return [outcome, performance.now() - started]
  } catch (error) {
    return [error, performance.now() - started]
  }
}

/** Patterns as people write them for flags. */
const ORDINARY = [
  "@example\\.com$", "@(example|acme)\\.com$", "^https?://(www\\.)?example\\.(com|org)/", "/(settings|billing)(/|$)",
  "^1\\.(2|3)\\.\\d+$", "(?i)chrome|firefox|safari", "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", "utm_source=(news|ads)",
  `^(${Array.from({ length: 30 }, (_, i) => `name${i}`).join("|")})@example\\.com$`, "pro|enterprise"
]

/** A URL at the bound on a property value, as a long page address with its query string would be. */
const LONG_URL = `https://www.example.com/settings/billing?utm_source=news&q=${"search%20terms&page=2&".repeat(480)}`.slice(0, 10_000)

/** Searches with the patterns compiled beforehand, as evaluation's are. */
const compiled = compiledPatterns(["a.{200}$", "^ann", "a[ab]{20}$", "a.{30}b", "(a|b)*a(a|b){12}$", "b{3}a[ab]{40}", "^(a|b)*?a{4}", ...ORDINARY])
const regexFinds = (pattern: string, text: string, budget: RegexBudget) => compiled.finds(pattern, text, budget)

describe("the regex budget of an evaluation", () => {
  it("refuses a match it cannot pay for within milliseconds, and every later match of the evaluation", () => {
    // Each try is a new value, whose states the DFA has not built; the least of three tells the refusal's
    // own time from a machine busy with other work.
    const tries = [1, 2, 3].map((seed) => {
      const budget = new RegexBudget()
      const [outcome, ms] = timed(() => regexFinds("a.{200}$", hostileValue(9_999, seed), budget))
      assert.instanceOf(outcome, RegexBudgetExceeded)
      assert.isTrue(budget.refused)
      assert.throws(() => regexFinds("^ann", "ann", budget), RegexBudgetExceeded)
      return ms
    })
    assert.isBelow(Math.min(...tries), paced(20))
  })

  it("answers as RE2 does wherever it pays, when the DFA gives way to the NFA too", () => {
    const patterns = ["a[ab]{20}$", "a.{30}b", "(a|b)*a(a|b){12}$", "b{3}a[ab]{40}", "^(a|b)*?a{4}"]
    for (let seed = 1; seed <= 20; seed++) {
      const value = hostileValue(500, seed).trimEnd() + (seed % 2 === 0 ? "\n" : "")
      for (const pattern of patterns) {
        assert.strictEqual(regexFinds(pattern, value, new RegexBudget()), RE2JS.compile(pattern).test(value), `${pattern} #${seed}`)
      }
    }
  })

  it("pays for the patterns people write on values at the bound", () => {
    const budget = new RegexBudget()
    const values = [LONG_URL, "ann.smith@example.com", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"]
    for (const pattern of ORDINARY) for (const value of values) regexFinds(pattern, value, budget)
    assert.isFalse(budget.refused)
  })
})

describe("an evaluation past its regex budget", () => {
  let id = 1
  const flag = (key: string, properties: ReadonlyArray<Record<string, unknown>>) =>
    storedFlag({ id: id++ as FeatureFlagId, key, filters: { groups: [{ properties, rollout_percentage: 100 }] } })
  const regexOn = (key: string, operator: string, value: string) => ({ key, operator, value, type: "person" })

  const light = flag("light", [regexOn("plan", "regex", "^pro$")])
  // Ten `not_regex` conditions that a value of 10,000 characters makes expensive.
  const heavy = flag("heavy", Array.from({ length: 10 }, (_, i) => regexOn("email", "not_regex", `a.{${200 + i}}$`)))
  const plain = flag("plain", [{ key: "plan", operator: "exact", value: "pro", type: "person" }])
  const dependent = flag("dependent", [{ key: String(heavy.id), type: "flag", operator: "flag_evaluates_to", value: true }])
  const later = flag("later", [regexOn("plan", "regex", "^p")])
  const prepared = withPatternsCompiled(prepareFlags([light, heavy, plain, dependent, later]))

  it("fails the flags whose regex work it cannot pay for, reports errors, and answers the rest", () => {
    const [evaluation, ms] = timed(() =>
      evaluateFlags(prepared, { distinct_id: "u", person_properties: { email: hostileValue(9_999, 3), plan: "pro" } })
    )
    const { results, errorsWhileComputingFlags } = evaluation as ReturnType<typeof evaluateFlags>
    const answered = resultsByKey({ results, errorsWhileComputingFlags })
    assert.isTrue(errorsWhileComputingFlags)
    assert.deepStrictEqual([...answered.keys()], ["light", "plain"])
    assert.isTrue(answered.get("light")!.enabled)
    assert.isTrue(answered.get("plain")!.enabled)
    assert.isBelow(ms, paced(100))
  })

  it("gives each evaluation a budget of its own: an ordinary value answers every flag", () => {
    const answered = evaluateFlags(prepared, { distinct_id: "u", person_properties: { email: "ann@example.com", plan: "pro" } })
    assert.isFalse(answered.errorsWhileComputingFlags)
    assert.deepStrictEqual(
      [...resultsByKey(answered).values()].map((result) => [result.key, result.enabled]),
      [["light", true], ["heavy", true], ["plain", true], ["dependent", true], ["later", true]]
    )
  })
})
