/**
 * How property values read as text and as truth. Two readers: posthog-node's (the SDK), which refuses
 * what it cannot render as PostHog's flags service would, and the flags service's (JSON text with keys
 * in code point order, as serde renders a map), for what the SDK leaves to the service.
 */

/** Whether text has no lone surrogate: only such text has a UTF-8 form both readers agree on. */
export const isScalarText = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i++
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false
    }
  }
  return true
}

/** Keys in code point order (UTF-16 order differs above U+FFFF). */
const byCodePoint = (a: string, b: string): number => {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

/** Compact JSON with sorted keys; `number` renders a number or answers undefined when it cannot. */
const jsonText = (value: unknown, number: (n: number) => string | undefined): string | undefined => {
  if (value === null || value === undefined) return "null"
  if (typeof value === "boolean") return value ? "true" : "false"
  if (typeof value === "string") return isScalarText(value) ? JSON.stringify(value) : undefined
  if (typeof value === "number") return number(value)
  if (Array.isArray(value)) {
    const items: Array<string> = []
    for (const item of value) {
      const text = jsonText(item, number)
      if (text === undefined) return undefined
      items.push(text)
    }
    return `[${items.join(",")}]`
  }
  if (typeof value === "object") {
    const entries: Array<string> = []
    for (const key of Object.keys(value).sort(byCodePoint)) {
      const text = jsonText((value as Record<string, unknown>)[key], number)
      if (text === undefined || !isScalarText(key)) return undefined
      entries.push(`${JSON.stringify(key)}:${text}`)
    }
    return `{${entries.join(",")}}`
  }
  return undefined
}

/**
 * The SDK's text of a value for `exact`: text as is, anything else as JSON. A parsed JSON number
 * does not tell `5` from `5.0`, which the service renders apart, so the SDK leaves any integral
 * number (and lone surrogates, and a filter without a value) to the service: undefined.
 */
export const sdkExactText = (value: unknown): string | undefined => {
  if (value === undefined) return undefined
  if (typeof value === "string") return isScalarText(value) ? value : undefined
  return jsonText(value, (n) => (Number.isFinite(n) && !Number.isInteger(n) ? String(n) : undefined))
}

/** The service's text of a value: text as is, anything else as JSON, integers in digits. */
export const serviceText = (value: unknown): string => {
  if (typeof value === "string") return value
  return jsonText(value, (n) => String(n).replace("e+", "e")) ?? String(value)
}

/** Whether a value is JSON both readers can render: text without lone surrogates, finite numbers. */
export const isRenderable = (value: unknown): boolean =>
  jsonText(value, (n) => (Number.isFinite(n) ? "0" : undefined)) !== undefined

/** Booleans, "true"/"false" in any case, and lists of only those are compared by truth in `exact`. */
export const isTruthLike = (value: unknown): boolean => {
  if (typeof value === "boolean") return true
  if (typeof value === "string") {
    const lower = value.toLowerCase()
    return lower === "true" || lower === "false"
  }
  return Array.isArray(value) && value.every(isTruthLike)
}

export const truthOf = (value: unknown): boolean => {
  if (typeof value === "boolean") return value
  if (typeof value === "string") return value.toLowerCase() === "true"
  return Array.isArray(value) && value.every(truthOf)
}

/** Any ASCII capital; without the global flag, so a test keeps no position between calls. */
const ASCII_CAPITAL = /[A-Z]/
const ASCII_CAPITALS = /[A-Z]/g

/**
 * Both readers fold only ASCII letters for the substring operators. Text with none to fold (most
 * e-mail addresses and ids) is returned as it is, without a replacement pass.
 */
export const asciiLower = (text: string): string =>
  ASCII_CAPITAL.test(text) ? text.replace(ASCII_CAPITALS, (letter) => letter.toLowerCase()) : text
