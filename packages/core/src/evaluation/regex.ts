import { RE2JS } from "re2js"
import { classRanges, MeteredRegex } from "./regex-budget.ts"

/**
 * `regex` and `not_regex`: a search anywhere in the value, as both the SDK and the service do; an
 * empty pattern matches and one that does not compile matches nothing (under either operator).
 *
 * Patterns run on RE2's engine, whose time is linear in the value whatever the pattern: a backtracking
 * engine (JavaScript's) can hold the event loop for seconds on one value. The service's engine, Rust's,
 * has RE2's syntax and meaning, with Unicode classes: `\d` and `\s` (and their negations) are read here
 * as it reads them, a decimal digit and white space of any script. `\w` and `\b` stay ASCII, as RE2 can
 * only have them, so that a word character and a word boundary agree with each other. What the service
 * also runs by backtracking (lookaround, backreferences) no linear engine can: it is refused at write.
 *
 * The SDK runs JavaScript's engine, but only on patterns and values where it means what RE2 means
 * (ASCII, none of the syntax the engines read apart, no carriage return); it leaves the rest to the
 * service. On the ones it decides, both engines answer alike; on the others RE2's answer stands in for
 * the service's, which no SDK answer can contradict: the SDK takes a later condition's answer over such
 * a pattern only when the pattern could not have changed it.
 */

/** Unicode's White_Space, which Rust's `\s` matches, as inclusive ranges of code points. */
const WHITE_SPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d], [0x20, 0x20], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029],
  [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000]
]

const hex = (code: number) => `\\x{${code.toString(16)}}`
const rangesText = (ranges: ReadonlyArray<readonly [number, number]>) =>
  ranges.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join("")

/** Every code point outside the ranges (which are sorted and apart). */
const complement = (ranges: ReadonlyArray<readonly [number, number]>) => {
  const outside: Array<readonly [number, number]> = []
  let next = 0
  for (const [low, high] of ranges) {
    if (low > next) outside.push([next, low - 1])
    next = high + 1
  }
  if (next <= 0x10ffff) outside.push([next, 0x10ffff])
  return outside
}

const SPACE = rangesText(WHITE_SPACE)
const NOT_SPACE = rangesText(complement(WHITE_SPACE))

/** What each Perl class becomes inside a bracketed class, and outside one. */
const UNICODE_CLASSES: Readonly<Record<string, readonly [inside: string, outside: string]>> = {
  d: ["\\p{Nd}", "\\p{Nd}"],
  D: ["\\P{Nd}", "\\P{Nd}"],
  s: [SPACE, `[${SPACE}]`],
  S: [NOT_SPACE, `[^${SPACE}]`]
}

/**
 * The pattern with `\d`, `\D`, `\s` and `\S` spelled as the service reads them. The pattern has
 * compiled, so its syntax is sound: an escape is a backslash and the character after it, `\Q...\E`
 * is literal, and a bracketed class runs to the first `]` that is not its first member (POSIX classes
 * such as `[:alpha:]` inside it included).
 */
const withUnicodeClasses = (pattern: string): string => {
  let out = ""
  let inClass = false
  let classStart = 0
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    if (char === "\\") {
      const next = pattern[i + 1] ?? ""
      if (next === "Q" && !inClass) {
        const end = pattern.indexOf("\\E", i + 2)
        const stop = end === -1 ? pattern.length : end + 2
        out += pattern.slice(i, stop)
        i = stop - 1
        continue
      }
      const unicode = UNICODE_CLASSES[next]
      out += unicode === undefined ? char + next : unicode[inClass ? 0 : 1]
      i++
      continue
    }
    if (!inClass && char === "[") {
      inClass = true
      classStart = pattern[i + 1] === "^" ? i + 2 : i + 1
    } else if (inClass && char === "[" && pattern[i + 1] === ":") {
      const end = pattern.indexOf(":]", i + 2)
      if (end !== -1) {
        out += pattern.slice(i, end + 2)
        i = end + 1
        continue
      }
    } else if (inClass && char === "]" && i > classStart) {
      inClass = false
    }
    out += char
  }
  return out
}

/**
 * Bounds on a pattern, so that compiling it stays quick, and on its program, by which the work of a match
 * grows (RE2's time is linear in the value, times a factor that grows with the program; what bounds that
 * work is the evaluation's budget, in regex-budget.ts). Compiling costs most where a pattern names
 * character classes: each Unicode class named is built from its table (and folded under `(?i)`), each
 * `\d` and `\s` is spelled as one, and making the DFA sorts the ranges of every class instruction, which a
 * repetition multiplies. Those are counted in the text before anything is compiled, and in the program
 * before its DFA is made.
 */
const MAX_PATTERN_LENGTH = 5_000
const MAX_PROGRAM = 1_000
/** `\p` and `\P` escapes. */
const MAX_UNICODE_CLASSES = 16
/** `\d`, `\D`, `\s` and `\S` escapes. */
const MAX_PERL_CLASSES = 64
const MAX_CLASS_RANGES = 100_000

/** The class escapes in the pattern (what `\Q...\E` quotes is literal), counted before compiling it. */
const classEscapes = (pattern: string): { readonly unicode: number; readonly perl: number } => {
  let unicode = 0
  let perl = 0
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\") continue
    const next = pattern[++i]
    if (next === "Q") {
      const end = pattern.indexOf("\\E", i + 1)
      if (end === -1) break
      i = end + 1
    } else if (next === "p" || next === "P") {
      unicode++
    } else if (next === "d" || next === "D" || next === "s" || next === "S") {
      perl++
    }
  }
  return { unicode, perl }
}

/**
 * What compiling a pattern is charged, in the steps of the evaluation's regex budget (regex-budget.ts),
 * when an evaluation meets it uncompiled (a project's patterns are compiled before its flags are
 * evaluated, so this is the exception): a fixed part, and parts for each character and each class escape,
 * as much as each costs, up to the bounds above (past them, compiling is refused before it starts).
 */
const COMPILE_STEPS = 20_000
const COMPILE_STEPS_PER_CHARACTER = 50
const COMPILE_STEPS_PER_UNICODE_CLASS = 12_000
const COMPILE_STEPS_PER_PERL_CLASS = 2_000

export const compileSteps = (pattern: string): number => {
  const { unicode, perl } = classEscapes(pattern)
  return COMPILE_STEPS + COMPILE_STEPS_PER_CHARACTER * Math.min(pattern.length, MAX_PATTERN_LENGTH) +
    COMPILE_STEPS_PER_UNICODE_CLASS * Math.min(unicode, MAX_UNICODE_CLASSES) +
    COMPILE_STEPS_PER_PERL_CLASS * Math.min(perl, MAX_PERL_CLASSES)
}

/** The plain compile's refusal: RE2's words without its prefix. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, "")

/**
 * The pattern compiled as evaluation runs it, or why it cannot be (RE2's words, or a bound). Only a
 * pattern whose spelling changes is compiled twice: as written, which decides whether it is refused, then
 * spelled out; should the spelled form not compile, RE2's reading stands. Spelling out cannot stand in
 * for the first compile, since it can make a pattern RE2 refuses compile (`[\x00-\s]`, where `\s` ends a
 * range).
 */
const compiledOrReason = (pattern: string): RE2JS | string => {
  if (pattern.length > MAX_PATTERN_LENGTH) return `too long: more than ${MAX_PATTERN_LENGTH} characters`
  const escapes = classEscapes(pattern)
  if (escapes.unicode > MAX_UNICODE_CLASSES) {
    return `too many Unicode classes: more than ${MAX_UNICODE_CLASSES} \\p or \\P`
  }
  if (escapes.perl > MAX_PERL_CLASSES) return `too many classes: more than ${MAX_PERL_CLASSES} \\d, \\D, \\s or \\S`
  let plain: RE2JS
  try {
    plain = RE2JS.compile(pattern)
  } catch (error) {
    return reasonOf(error)
  }
  const size = plain.programSize()
  if (size > MAX_PROGRAM) return `too large: it compiles to ${size} instructions, more than ${MAX_PROGRAM}`
  const spelled = withUnicodeClasses(pattern)
  let regex = plain
  if (spelled !== pattern) {
    try {
      regex = RE2JS.compile(spelled)
    } catch {
      // RE2's reading stands.
    }
  }
  const ranges = classRanges(regex)
  return ranges > MAX_CLASS_RANGES
    ? `too large: its character classes hold ${ranges} ranges, more than ${MAX_CLASS_RANGES}`
    : regex
}

/**
 * The refusal of a `regex` or `not_regex` pattern that cannot be evaluated in linear time (lookaround,
 * backreferences), or quickly (past the bounds above), or at all (invalid syntax); undefined when it
 * can be. Flags and cohorts give it as the detail of their 400; a stored pattern it refuses matches
 * nothing.
 */
export const regexPatternError = (pattern: string): string | undefined => {
  const outcome = compiledOrReason(pattern)
  return typeof outcome === "string" ? `Invalid regex pattern: ${outcome}` : undefined
}

/** The pattern as evaluation runs it, or null when it matches nothing (refused above). */
export const compilePattern = (pattern: string): MeteredRegex | null => {
  const compiled = compiledOrReason(pattern)
  return typeof compiled === "string" ? null : new MeteredRegex(compiled)
}
