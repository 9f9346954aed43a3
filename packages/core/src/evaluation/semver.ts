/**
 * The semver operators. The SDK reads major.minor.patch strictly (digits, no leading zero, missing
 * parts 0, anything after `-` or `+` ignored) and leaves any other version to the service. The service
 * first strips leading zeros and pads missing parts (mobile versions such as "3.08"), then reads a
 * full semantic version, pre-release included. Build metadata is ignored here.
 */

type Triple = readonly [number, number, number]

const STRICT_PART = /^(0|[1-9]\d*)$/

const DOT = 46
const MINUS = 45
const PLUS = 43
const ZERO = 48
const NINE = 57

/**
 * The SDK's reading, or undefined for a version it leaves to the service: after an optional `v`, up to
 * the first `-` or `+`, three parts split by dots, each empty (0) or a number without a leading zero;
 * parts past the third are not read. Read a character at a time: it runs for every version condition of
 * every evaluation.
 */
export const sdkVersion = (value: unknown): Triple | undefined => {
  const text = String(value).trim()
  let i = text.charCodeAt(0) === 118 || text.charCodeAt(0) === 86 ? 1 : 0
  const first = text.charCodeAt(i)
  if (i === text.length || first === DOT || first === MINUS || first === PLUS) return undefined
  const parts = [0, 0, 0]
  for (let part = 0; part < 3; part++) {
    const start = i
    for (let c = text.charCodeAt(i); i < text.length && c !== DOT && c !== MINUS && c !== PLUS; c = text.charCodeAt(++i)) {
      if (c < ZERO || c > NINE) return undefined
    }
    const digits = i - start
    if (digits > 1 && text.charCodeAt(start) === ZERO) return undefined
    if (digits > 0) parts[part] = Number(text.slice(start, i))
    // The version ends at its first `-` or `+`, or with the text; the parts it leaves out are 0.
    if (text.charCodeAt(i) !== DOT) break
    i++
  }
  return [parts[0]!, parts[1]!, parts[2]!]
}

const compareTriples = (a: Triple, b: Triple): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

export type SemverOperator =
  | "semver_eq" | "semver_neq" | "semver_gt" | "semver_gte" | "semver_lt" | "semver_lte"
  | "semver_tilde" | "semver_caret" | "semver_wildcard"

const comparison = (operator: SemverOperator, order: number): boolean => {
  switch (operator) {
    case "semver_eq":
      return order === 0
    case "semver_neq":
      return order !== 0
    case "semver_gt":
      return order > 0
    case "semver_gte":
      return order >= 0
    case "semver_lt":
      return order < 0
    default:
      return order <= 0
  }
}

/** The SDK's range `[lower, upper)` for `~`, `^` and wildcard filters, or undefined. */
const sdkRange = (operator: SemverOperator, filter: unknown): readonly [Triple, Triple] | undefined => {
  if (operator === "semver_wildcard") {
    const text = String(filter).trim().replace(/^[vV]/, "").replace(/\.\*$/, "").replace(/\*$/, "")
    if (text === "") return undefined
    const parts = text.split(".")
    const major = STRICT_PART.test(parts[0]!) ? Number.parseInt(parts[0]!, 10) : undefined
    if (major === undefined) return undefined
    if (parts.length === 1) return [[major, 0, 0], [major + 1, 0, 0]]
    const minor = STRICT_PART.test(parts[1]!) ? Number.parseInt(parts[1]!, 10) : undefined
    return minor === undefined ? undefined : [[major, minor, 0], [major, minor + 1, 0]]
  }
  const lower = sdkVersion(filter)
  if (lower === undefined) return undefined
  const [major, minor, patch] = lower
  if (operator === "semver_tilde") return [lower, [major, minor + 1, 0]]
  return [lower, major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1]]
}

/** The SDK's answer, or undefined when it leaves the property to the service. */
export const sdkSemver = (operator: SemverOperator, actual: unknown, filter: unknown): boolean | undefined => {
  if (operator === "semver_tilde" || operator === "semver_caret" || operator === "semver_wildcard") {
    const range = sdkRange(operator, filter)
    const version = range === undefined ? undefined : sdkVersion(actual)
    if (range === undefined || version === undefined) return undefined
    return compareTriples(version, range[0]) >= 0 && compareTriples(version, range[1]) < 0
  }
  const wanted = sdkVersion(filter)
  const version = wanted === undefined ? undefined : sdkVersion(actual)
  if (wanted === undefined || version === undefined) return undefined
  return comparison(operator, compareTriples(version, wanted))
}

/** A full semantic version as the service reads it. */
interface Version {
  readonly triple: Triple
  readonly pre: ReadonlyArray<string>
}

const IDENTIFIER = /^[0-9A-Za-z-]+$/

/** Leading zeros stripped from all-digit parts, missing parts padded with 0, up to the suffix. */
const canonical = (text: string): string => {
  const cut = text.search(/[-+]/)
  const core = cut === -1 ? text : text.slice(0, cut)
  const suffix = cut === -1 ? "" : text.slice(cut)
  const parts = core.split(".").map((part) => (/^\d+$/.test(part) ? part.replace(/^0+(?=\d)/, "") : part))
  while (parts.length < 3) parts.push("0")
  return parts.join(".") + suffix
}

const parseVersion = (text: string): Version | undefined => {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([^+]+))?(?:\+(.+))?$/.exec(text)
  if (match === null) return undefined
  const [, major, minor, patch, pre, build] = match
  if ([major, minor, patch].some((part) => part!.length > 1 && part!.startsWith("0"))) return undefined
  const preIds = pre === undefined ? [] : pre.split(".")
  if (!preIds.every((id) => IDENTIFIER.test(id) && !(/^\d+$/.test(id) && id.length > 1 && id.startsWith("0")))) {
    return undefined
  }
  if (build !== undefined && !build.split(".").every((id) => IDENTIFIER.test(id))) return undefined
  return { triple: [Number(major), Number(minor), Number(patch)], pre: preIds }
}

const serviceVersion = (value: unknown): Version | undefined => {
  const text = (typeof value === "string" ? value : JSON.stringify(value) ?? "").replace(/^v/, "").trim()
  return parseVersion(canonical(text))
}

/** Semantic version precedence: a pre-release sorts before its release, identifiers compare in turn. */
const compareVersions = (a: Version, b: Version): number => {
  const order = compareTriples(a.triple, b.triple)
  if (order !== 0) return order
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!
    const y = b.pre[i]!
    if (x === y) continue
    const xNumeric = /^\d+$/.test(x)
    const yNumeric = /^\d+$/.test(y)
    if (xNumeric && yNumeric) return Number(x) - Number(y)
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1
    return x < y ? -1 : 1
  }
  return a.pre.length - b.pre.length
}

/** A version with a pre-release satisfies a range only through a bound on the same release that has one. */
const withinRange = (version: Version, lower: Version, upper: Triple): boolean =>
  compareVersions(version, lower) >= 0 &&
  compareTriples(version.triple, upper) < 0 &&
  (version.pre.length === 0 || (lower.pre.length > 0 && compareTriples(version.triple, lower.triple) === 0))

/** The service's range for `~`, `^` and wildcard filters (a wildcard without `*` reads as `^`). */
const serviceRange = (operator: SemverOperator, filter: unknown): ((version: Version) => boolean) | undefined => {
  const text = (typeof filter === "string" ? filter : JSON.stringify(filter) ?? "").replace(/^v/, "").trim()
  if (operator === "semver_wildcard") {
    const parts = text.split(".").map((part) => (/^\d+$/.test(part) ? part.replace(/^0+(?=\d)/, "") : part))
    if (parts.some((part) => part === "*" || part === "x" || part === "X")) {
      const fixed: Array<number> = []
      for (const part of parts) {
        if (part === "*" || part === "x" || part === "X") break
        if (!/^\d+$/.test(part)) return undefined
        fixed.push(Number(part))
      }
      if (parts.slice(fixed.length).some((part) => part !== "*" && part !== "x" && part !== "X") || parts.length > 3) {
        return undefined
      }
      if (fixed.length === 0) return (version) => version.pre.length === 0
      const lower: Version = { triple: [fixed[0]!, fixed[1] ?? 0, 0], pre: [] }
      const upper: Triple = fixed.length === 1 ? [fixed[0]! + 1, 0, 0] : [fixed[0]!, fixed[1]! + 1, 0]
      return (version) => withinRange(version, lower, upper)
    }
    return serviceRange("semver_caret", parts.join("."))
  }
  const lower = parseVersion(canonical(text))
  if (lower === undefined) return undefined
  const [major, minor, patch] = lower.triple
  const upper: Triple = operator === "semver_tilde"
    ? [major, minor + 1, 0]
    : major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1]
  return (version) => withinRange(version, lower, upper)
}

/** The service's answer: an unreadable version on either side does not match. */
export const serviceSemver = (operator: SemverOperator, actual: unknown, filter: unknown): boolean => {
  const version = serviceVersion(actual)
  if (version === undefined) return false
  if (operator === "semver_tilde" || operator === "semver_caret" || operator === "semver_wildcard") {
    return serviceRange(operator, filter)?.(version) ?? false
  }
  const wanted = serviceVersion(filter)
  return wanted !== undefined && comparison(operator, compareVersions(version, wanted))
}
