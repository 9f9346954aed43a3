import { FALSE_WORDS, TRUE_WORDS } from "../shared/python.ts"

/**
 * How PostHog reads the scalar values of a cohort's filters: what each kind of field takes, what it
 * makes of it, and its words when it cannot. A reading is the value, or the refusal as `{ type, msg }`.
 */

export interface Refusal {
  readonly type: string
  readonly msg: string
}

export type Reading<A> = { readonly ok: A } | Refusal

const refused = (type: string, msg: string): Refusal => ({ type, msg })

export const isRefusal = <A>(reading: Reading<A>): reading is Refusal => "type" in reading

export const readString = (value: unknown): Reading<string> =>
  typeof value === "string" ? { ok: value } : refused("string_type", "Input should be a valid string")

export const readBoolean = (value: unknown): Reading<boolean> => {
  if (typeof value === "boolean") return { ok: value }
  if (typeof value === "number") {
    if (value === 0 || value === 1) return { ok: value === 1 }
    return refused("bool_parsing", "Input should be a valid boolean, unable to interpret input")
  }
  if (typeof value === "string") {
    const text = value.toLowerCase()
    if (TRUE_WORDS.has(text)) return { ok: true }
    if (FALSE_WORDS.has(text)) return { ok: false }
    return refused("bool_parsing", "Input should be a valid boolean, unable to interpret input")
  }
  return refused("bool_type", "Input should be a valid boolean")
}

export const readInteger = (value: unknown): Reading<number> => {
  if (typeof value === "boolean") return { ok: value ? 1 : 0 }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return refused("finite_number", "Input should be a finite number")
    if (!Number.isInteger(value)) return refused("int_from_float", "Input should be a valid integer, got a number with a fractional part")
    if (!Number.isSafeInteger(value)) return refused("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size")
    return { ok: value }
  }
  if (typeof value === "string") {
    const text = value.trim()
    if (!/^[+-]?\d+$/.test(text)) return refused("int_parsing", "Input should be a valid integer, unable to parse string as an integer")
    const parsed = Number(text)
    if (!Number.isSafeInteger(parsed)) return refused("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size")
    return { ok: parsed }
  }
  return refused("int_type", "Input should be a valid integer")
}

/** A field that may also be null (or absent): null reads as none. */
export const orNone = <A>(read: (value: unknown) => Reading<A>) => (value: unknown): Reading<A | null> =>
  value === null || value === undefined ? { ok: null } : read(value)

/** Text or an integer, as an action's id may be either. */
export const readStringOrInteger = (value: unknown): Reading<string | number> =>
  typeof value === "string"
    ? { ok: value }
    : typeof value === "number" && Number.isSafeInteger(value)
    ? { ok: value }
    : refused("union_type", "Input should be a valid string or a valid integer")

export const readList = (value: unknown): Reading<ReadonlyArray<unknown>> =>
  Array.isArray(value) ? { ok: value } : refused("list_type", "Input should be a valid list")

export const readAny = (value: unknown): Reading<unknown> => ({ ok: value })

/** One of the given texts. */
export const readLiteral = (choices: ReadonlyArray<string>) => (value: unknown): Reading<string> =>
  typeof value === "string" && choices.includes(value) ? { ok: value } : refused("literal_error", `Input should be ${alternatives(choices)}`)

/** `'a', 'b' or 'c'`, as PostHog's message lists what it expected. */
export const alternatives = (choices: ReadonlyArray<string>): string => {
  const quoted = choices.map((choice) => `'${choice}'`)
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`
}
