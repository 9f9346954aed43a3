import { assert, describe, it } from "@effect/vitest"
import { vi } from "vitest"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import type { PreparedFlags } from "../src/evaluation/model.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { regexPatternError } from "../src/evaluation/regex.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { withPatternsCompiled } from "./compiled-patterns.ts"
import { pick, random, type Random } from "./evaluation-cases.ts"
import { localClient } from "./posthog-local.ts"
import { storedFlag } from "./stored-flag.ts"

/**
 * Hedgerow's `regex` and `not_regex` (RE2's engine) against posthog-node's local evaluation (JavaScript's
 * RegExp, on the patterns and values it decides itself): one flag per pattern and operator, one person
 * per value, every flag in one evaluation. Wherever the SDK decides, the answers must agree, and no
 * evaluation may go past its regex budget. Patterns are written and generated short, and generated
 * values are at most a dozen characters, so that no backtracking on the JavaScript side can run long; the
 * written patterns also meet values as long as SDKs send, on which none of them backtracks far.
 * HEDGEROW_REGEX_PATTERNS sets the number of generated patterns; HEDGEROW_EVAL_SEED the seed.
 */

const GENERATED = Number(process.env["HEDGEROW_REGEX_PATTERNS"] ?? 400)
const SEED = Number(process.env["HEDGEROW_EVAL_SEED"] ?? 20_260_101)

/** Patterns as people write them for flags. */
const WRITTEN = [
  "@example\\.com$", "^ann", "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", "^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$",
  "^https?://(www\\.)?example\\.(com|org)/", "/(settings|billing)(/|$)", "^1\\.(2|3)\\.\\d+$", "\\d{3}-\\d{4}", "^\\s*$", "\\S+\\s\\S+",
  "^[A-Z]{2}$", "pro|enterprise", "^(?:free|trial)$", "[^a-z]", "\\w+@\\w+", "^\\w{3,8}$", "a.c", "^$", "^.*$", "x*", "(ab)+", "a{2,3}b?",
  "[\\s\\d]{2}", "[^\\s]", "\\.", "[.]", "[\\-_]", "\\Bb", "^-?\\d+(\\.\\d+)?$", "[\\x41-\\x5a]+", "\\x20", "\\t|\\n", "\\v", "\\f", "a+?b",
  "(a|)b", "a|b|", "[a-c]{2}|[x-z]", "(?:a(?:b|c))+", "^[^@]+@[^@]+$", "\\/", "\\:", "\\$", "\\^", "\\*", "\\(\\)", "\\{", "}", "]"
]

const LETTERS = ["a", "b", "A", "1", "9", "_", "-", ".", "@", "/", " ", ":"]
const ESCAPES = ["\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\.", "\\-", "\\/", "\\t", "\\n", "\\v", "\\f", "\\x41", "\\x20", "\\@", "\\_", "\\ "]
const CLASSES = [
  "[ab]", "[^a1]", "[a-c]", "[\\d.]", "[\\s\\w]", "[^\\S]", "[^\\s]", "[-a]", "[a\\-z]", "[.@]", "[\\x20-\\x2f]", "[^\\w\\s]", "[\\D]", "[ \\t]",
  "[\\v\\f]", "[A-Za-z]", "[^ab]"
]
const QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?", "+?", "??", "{0,2}"]

const atom = (next: Random, depth: number): string => {
  const roll = next()
  if (roll < 0.3) return LETTERS[Math.floor(next() * LETTERS.length)]!.replace(/[.]/, "\\.")
  if (roll < 0.5) return pick(next, ESCAPES)
  if (roll < 0.7) return pick(next, CLASSES)
  if (roll < 0.75) return "."
  if (roll < 0.8) return pick(next, ["\\b", "\\B"])
  if (depth >= 2) return pick(next, LETTERS)
  const inner = Array.from({ length: 1 + Math.floor(next() * 2) }, () => sequence(next, depth + 1)).join("|")
  return next() < 0.5 ? `(${inner})` : `(?:${inner})`
}

const sequence = (next: Random, depth: number): string =>
  Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
    const item = atom(next, depth)
    return item.startsWith("\\b") || item.startsWith("\\B") ? item : item + pick(next, QUANTIFIERS)
  }).join("")

const generatePattern = (next: Random): string =>
  `${next() < 0.3 ? "^" : ""}${sequence(next, 0)}${next() < 0.3 ? "$" : ""}`

/** Values of a dozen characters at most, of the alphabet the patterns use, and some the SDK leaves to the service. */
const VALUE_CHARACTERS = ["a", "b", "c", "A", "B", "1", "9", "0", "_", "-", ".", "@", "/", ":", " ", "\t", "\n", "\u000b", "\f", "x", "z"]
const WRITTEN_VALUES = [
  "", "ann@example.com", "bob@example.org", "https://example.com/settings", "1.2.3", "555-1234", "   ", "a b", "FR", "pro", "ab",
  "aab", "a\u000bb", "a\nb", "a\r\nb", "café", "٣", "a\u00a0b", "x\u3000y", "$", "{}", "()"
]

const generateValue = (next: Random): string =>
  Array.from({ length: Math.floor(next() * 12) }, () => pick(next, VALUE_CHARACTERS)).join("")

const compilesInJavaScript = (pattern: string) => {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

/** One flag for each pattern and operator, on the person property `v`. */
const flagsOf = (patterns: ReadonlyArray<string>) =>
  withPatternsCompiled(prepareFlags(patterns.flatMap((pattern, i) =>
    ["regex", "not_regex"].map((operator, j) =>
      storedFlag({
        id: (2 * i + j + 1) as FeatureFlagId,
        key: `${operator}-${i}`,
        filters: { groups: [{ properties: [{ key: "v", operator, value: pattern, type: "person" }], rollout_percentage: 100 }] }
      })
    )
  )))

/**
 * Each value evaluated by posthog-node locally and by Hedgerow, every flag in one evaluation: the answers
 * the SDK decides, the mismatches, and how many evaluations went past their regex budget.
 */
const differential = async (prepared: PreparedFlags, values: ReadonlyArray<string>) => {
  // The SDK warns, once per load, about the patterns it leaves to the service.
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
  const client = localClient(prepared)
  let decided = 0
  let pastBudget = 0
  const mismatches: Array<string> = []
  try {
    for (const [i, value] of values.entries()) {
      const local = await client.getAllFlags(`person-${i}`, { personProperties: { v: value }, onlyEvaluateLocally: true })
      const evaluation = evaluateFlags(prepared, { distinct_id: `person-${i}`, person_properties: { v: value } })
      if (evaluation.errorsWhileComputingFlags) pastBudget++
      const ours = resultsByKey(evaluation)
      for (const flag of prepared.flags) {
        if (!(flag.key in local)) continue
        decided++
        const result = ours.get(flag.key)
        if (result?.enabled !== local[flag.key]) {
          const { operator, value: pattern } = flag.conditions.groups[0]!.properties[0]!
          mismatches.push(JSON.stringify({ operator, pattern, value: value.slice(0, 100), sdk: local[flag.key], hedgerow: result?.enabled }))
        }
      }
    }
  } finally {
    warn.mockRestore()
    await client.shutdown()
  }
  return { decided, mismatches, pastBudget }
}

/** Values of the lengths SDKs send: page addresses with their query strings, user agents, text, e-mail addresses. */
const LONG_VALUES = [
  "https://www.example.com/settings/billing?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
  `https://app.example.org/projects/42/dashboards?${"filter=country%3DFR&sort=-created_at&".repeat(52)}`.slice(0, 2_000),
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  "the quick brown fox jumps over the lazy dog ".repeat(23).slice(0, 1_000),
  "ann.smith+flags@example.com", "1.2.30", "enterprise"
]

/** Patterns Hedgerow refuses at write cannot be stored; those JavaScript cannot compile match nothing in both. */
const storable = (pattern: string) => regexPatternError(pattern) === undefined && compilesInJavaScript(pattern)

describe("regex conditions against posthog-node", () => {
  it(`agree wherever the SDK decides, on written and ${GENERATED} generated patterns`, { timeout: 600_000 }, async () => {
    const next = random(SEED)
    const candidates = [...WRITTEN, ...Array.from({ length: GENERATED }, () => generatePattern(next))]
    const patterns = [...new Set(candidates)].filter(storable)
    const values = [...WRITTEN_VALUES, ...Array.from({ length: 150 }, () => generateValue(next))]
    const { decided, mismatches, pastBudget } = await differential(flagsOf(patterns), values)
    console.log(`regex differential: ${patterns.length} patterns, ${values.length} values, ${decided} answers decided by posthog-node, ${mismatches.length} mismatches`)
    assert.deepStrictEqual(mismatches.slice(0, 10), [])
    assert.strictEqual(pastBudget, 0)
    assert.isAbove(patterns.length, GENERATED / 2)
    assert.isAbove(decided, (patterns.length * values.length) / 2)
  })

  it("agree on the patterns people write against values as long as SDKs send, all within the regex budget", { timeout: 120_000 }, async () => {
    const patterns = WRITTEN.filter(storable)
    const { decided, mismatches, pastBudget } = await differential(flagsOf(patterns), LONG_VALUES)
    console.log(`regex differential on long values: ${patterns.length} patterns, ${LONG_VALUES.length} values, ${decided} answers decided by posthog-node, ${mismatches.length} mismatches`)
    assert.deepStrictEqual(mismatches.slice(0, 10), [])
    assert.strictEqual(pastBudget, 0)
    assert.isAbove(decided, (patterns.length * LONG_VALUES.length) / 2)
  })
})
