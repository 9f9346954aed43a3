/**
 * `regex` and `not_regex`: a search anywhere in the value, as both the SDK and the service do; an
 * empty pattern matches and one that does not compile matches nothing (under either operator). The
 * SDK runs JavaScript's engine, and so does Hedgerow. For patterns and values outside the ASCII subset
 * the SDK trusts, it asks the service, whose engine is Rust's; JavaScript's answer stands in for it,
 * which no SDK answer can contradict: the SDK takes a later condition's answer over such a pattern
 * only when the pattern could not have changed it.
 */

const compiled = new Map<string, RegExp | null>()
const MAX_PATTERNS = 10_000

const compile = (pattern: string): RegExp | null => {
  let regex = compiled.get(pattern)
  if (regex !== undefined) return regex
  try {
    regex = new RegExp(pattern)
  } catch {
    regex = null
  }
  if (compiled.size >= MAX_PATTERNS) compiled.clear()
  compiled.set(pattern, regex)
  return regex
}

/** Whether the pattern is found in the text; null when it does not compile. */
export const regexFinds = (pattern: string, text: string): boolean | null => {
  if (pattern === "") return true
  const regex = compile(pattern)
  return regex === null ? null : regex.test(text)
}
