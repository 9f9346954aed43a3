/**
 * How PostHog reads loosely typed values: an integer from a number or from text (as it reads the id a
 * filter names), and a boolean from a word. Its boolean fields take the same words, in three casings.
 */

/** An integer, or text holding one (whitespace around it aside); anything else names none. */
export const integerOf = (value: unknown): number | null => {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) {
    const parsed = Number(value)
    return Number.isSafeInteger(parsed) ? parsed : null
  }
  return null
}

/** The words read as true, once lower-cased. */
export const TRUE_WORDS: ReadonlySet<string> = new Set(["1", "on", "t", "true", "y", "yes"])
/** The words read as false, once lower-cased. */
export const FALSE_WORDS: ReadonlySet<string> = new Set(["0", "off", "f", "false", "n", "no"])

/** Whether text is one of the words read as true, in any casing. */
export const saysTrue = (text: string): boolean => TRUE_WORDS.has(text.toLowerCase())
