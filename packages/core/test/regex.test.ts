import { assert, describe, it } from "@effect/vitest"
import { compilePattern, regexPatternError } from "../src/evaluation/regex.ts"
import { RegexBudget } from "../src/evaluation/regex-budget.ts"
import { compiledPatterns } from "./compiled-patterns.ts"
import { threadTimed } from "./thread-slices.ts"
import { paced } from "./machine-pace.ts"

/** One search, as the only one of an evaluation, with the pattern compiled beforehand. */
const finds = (pattern: string, text: string) => compiledPatterns([pattern]).finds(pattern, text, new RegexBudget())

const EMAIL = "^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$"

/** One search's answer and the CPU time it takes, in ms. */
const timed = (pattern: string, text: string) => threadTimed(() => finds(pattern, text))

describe("regex conditions on RE2's engine", () => {
  it("take time linear in the value on the patterns that make a backtracking engine stall", () => {
    // Warm the engine up, so that the times below are the searches' own.
    finds("^(b+)+$", "bbbc")
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["^(a+)+$", `${"a".repeat(30)}b`],
      ["^(a+)+$", `${"a".repeat(10_000)}b`],
      [EMAIL, `${"a".repeat(34)}@`],
      [EMAIL, `${"a".repeat(5_000)}@${"b.".repeat(2_500)}`],
      ["(x+x+)+y", "x".repeat(10_000)],
      ["^(\\w+\\s?)*$", `${"word ".repeat(2_000)}!`]
    ]
    for (const [pattern, text] of cases) {
      const [found, ms] = timed(pattern, text)
      assert.isFalse(found, pattern)
      assert.isBelow(ms, paced(50), `${pattern} on ${text.length} characters`)
    }
  })

  it("search anywhere, as both readers do; an empty pattern matches", () => {
    assert.isTrue(finds("@example\\.com$", "ann@example.com"))
    assert.isFalse(finds("^bob", "ann@example.com"))
    assert.isTrue(finds("", "anything"))
    assert.isTrue(finds("(?i)ANN", "ann"))
    assert.isFalse(finds("a$", "a\n"))
    assert.isTrue(finds("(?m)a$", "a\nb"))
  })

  it("read \\d and \\s as the flags service does: digits and white space of any script", () => {
    assert.isTrue(finds("^\\d$", "٣"))
    assert.isFalse(finds("^\\D$", "٣"))
    assert.isTrue(finds("^[\\d]$", "٣"))
    assert.isFalse(finds("^[\\D]$", "٣"))
    for (const space of ["\t", "\n", "\u000b", "\f", "\r", " ", "\u0085", "\u00a0", "\u2028", "\u3000"]) {
      assert.isTrue(finds("^\\s$", space), JSON.stringify(space))
      assert.isTrue(finds("^[x\\s]$", space), JSON.stringify(space))
      assert.isFalse(finds("^\\S$", space), JSON.stringify(space))
      assert.isFalse(finds("^[x\\S]$", space), JSON.stringify(space))
      assert.isTrue(finds("^[^\\S]$", space), JSON.stringify(space))
    }
    // U+FEFF is white space to JavaScript, not to Unicode.
    assert.isFalse(finds("\\s", "\ufeff"))
    assert.isTrue(finds("^\\S$", "\ufeff"))
  })

  it("keep \\w and \\b ASCII, as RE2 has them, and every other escape as written", () => {
    assert.isFalse(finds("^\\w$", "é"))
    assert.isTrue(finds("\\bcafé", "a café"))
    assert.isTrue(finds("^\\\\s$", "\\s"))
    assert.isTrue(finds("^\\Q\\s.\\E$", "\\s."))
    assert.isTrue(finds("^[]\\s]+$", "] "))
    assert.isTrue(finds("^[^]\\s]$", "x"))
    assert.isTrue(finds("^[[:alpha:]\\s]+$", "ab c"))
    assert.isTrue(finds("^\\p{Greek}\\s$", "λ\u3000"))
  })

  it("match nothing with a pattern they cannot compile, and never throw on any text", () => {
    for (const pattern of ["(unclosed", "(?=a)", "(a)\\1", "[\\b]", "a{1001}"]) {
      assert.isNull(finds(pattern, "a"), pattern)
    }
    assert.isFalse(finds("a\\sb", "a\ud800b"))
    assert.isTrue(finds("^.$", "\udc00"))
    assert.isTrue(finds("^.$", "😀"))
  })

  it("match nothing with a pattern RE2 refuses that spelling its classes out would make compile", () => {
    // `\s` ending a range is no escape RE2 knows; spelled out, it would be a range and a list.
    for (const pattern of ["[\\x00-\\s]", "[\\x{0}-\\S]"]) {
      assert.isDefined(regexPatternError(pattern), pattern)
      assert.isNull(finds(pattern, "\u0000"), pattern)
      assert.isNull(finds(pattern, " "), pattern)
    }
    // The other way round RE2's reading stands: `\s` then a literal `-` and `z`.
    assert.isTrue(finds("^[\\s-z]+$", " -z"))
    assert.isFalse(finds("^[\\s-z]+$", "y"))
  })
})

describe("a regex pattern refused at write", () => {
  it("says why RE2 cannot run it", () => {
    assert.strictEqual(regexPatternError("(unclosed"), "Invalid regex pattern: missing closing ): `(unclosed`")
    assert.strictEqual(regexPatternError("^(?=.*\\d)"), "Invalid regex pattern: invalid or unsupported Perl syntax: `(?=`")
    assert.strictEqual(regexPatternError("(?<!a)b"), "Invalid regex pattern: invalid named capture: `(?<!a)b`")
    assert.strictEqual(regexPatternError("(a)\\1"), "Invalid regex pattern: invalid escape sequence: `\\1`")
    assert.strictEqual(regexPatternError("x{1001}"), "Invalid regex pattern: invalid repeat count: `{1001}`")
  })

  it("bounds its text and its program", () => {
    assert.strictEqual(regexPatternError("a".repeat(5_001)), "Invalid regex pattern: too long: more than 5000 characters")
    assert.strictEqual(regexPatternError("a".repeat(1_001)), "Invalid regex pattern: too large: it compiles to 1003 instructions, more than 1000")
    assert.strictEqual(regexPatternError("a".repeat(997)), undefined)
    assert.strictEqual(regexPatternError("[a-zA-Z0-9]".repeat(400)), undefined)
  })

  it("bounds the classes it names, and the ranges its classes hold, so that compiling it stays quick", () => {
    assert.strictEqual(
      regexPatternError("\\p{L}".repeat(17)),
      "Invalid regex pattern: too many Unicode classes: more than 16 \\p or \\P"
    )
    assert.strictEqual(regexPatternError("\\d".repeat(65)), "Invalid regex pattern: too many classes: more than 64 \\d, \\D, \\s or \\S")
    assert.strictEqual(
      regexPatternError("\\p{L}{150}"),
      "Invalid regex pattern: too large: its character classes hold 102600 ranges, more than 100000"
    )
    // What `\\Q...\\E` quotes is literal; `\\d` spelled out holds some sixty ranges, repeated or not.
    assert.strictEqual(regexPatternError(`\\Q${"\\p".repeat(20)}\\E`), undefined)
    assert.strictEqual(regexPatternError("\\d{990}"), undefined)
    // At the bounds, the costliest patterns compile in a few ms; past them, a refusal compiles nothing.
    const costliest = ["(?i)" + "\\p{L}".repeat(16) + "\\d".repeat(64), "\\D{15}".repeat(64), "(?i:[\\p{L}\\p{N}\\p{P}\\p{S}]){36}"]
    for (const pattern of costliest) {
      assert.isUndefined(regexPatternError(pattern), pattern)
      const times = [1, 2, 3].map(() => threadTimed(() => compilePattern(pattern)))
      for (const [compiled] of times) assert.isNotNull(compiled, pattern)
      assert.isBelow(Math.min(...times.map(([, ms]) => ms)), paced(10), pattern)
    }
    const [refusals, ms] = threadTimed(() => [
      regexPatternError("(?i)" + "\\p{L}".repeat(900)),
      regexPatternError("(?i:[\\p{L}\\p{N}\\p{P}\\p{S}]){998}")
    ])
    for (const refusal of refusals) assert.isDefined(refusal)
    assert.isBelow(ms, paced(15))
  })

  it("takes what RE2 runs", () => {
    for (const pattern of ["", "^ann", EMAIL, "(?i)chrome|firefox", "\\p{Greek}", "[[:digit:]]", "(?P<name>a)", "(?<name>a)", "\\x{263a}"]) {
      assert.strictEqual(regexPatternError(pattern), undefined, pattern)
    }
  })
})
