import type { PreparedFlag, PreparedFlags } from "../evaluation/model.ts"
import type { JsonRecord } from "../shared/fields.ts"

/** A `$feature_flag_called` event as a count: the flag it names and the value it says was returned. */
export interface FlagCall {
  readonly flag: PreparedFlag
  /** `true`, `false`, or a variant's key. */
  readonly value: string
}

/**
 * The value a flag can return, as text, or undefined for one it cannot: a boolean flag returns true or
 * false, a flag with variants one of its variants (its holdout's included) or false. Counting only these
 * keeps a flag's counts to its own few values, whatever events say.
 */
const valueOf = (prepared: PreparedFlag, response: unknown): string | undefined => {
  const text = typeof response === "boolean" ? String(response) : typeof response === "string" ? response : undefined
  if (text === undefined || text === "false") return text
  const { conditions, holdout } = prepared
  if (!conditions.hasMultivariate) return text === "true" ? text : undefined
  return conditions.variantKeys.has(text) || holdout?.variant === text ? text : undefined
}

/**
 * What a `$feature_flag_called` event's properties report (`$feature_flag`, `$feature_flag_response`),
 * read against the project's flags; undefined when the key names no flag of the project, or the value
 * is none the flag returns.
 */
export const flagCallOf = (properties: JsonRecord, flags: PreparedFlags): FlagCall | undefined => {
  const key = properties.$feature_flag
  if (typeof key !== "string") return undefined
  const flag = flags.byKey.get(key)
  if (flag === undefined) return undefined
  const value = valueOf(flag, properties.$feature_flag_response)
  return value === undefined ? undefined : { flag, value }
}

/** The group type a `$groupidentify` event names, when it names one with a group key. */
export const groupTypeOf = (properties: JsonRecord): string | undefined => {
  const type = properties.$group_type
  const key = properties.$group_key
  const hasKey = (typeof key === "string" && key !== "") || typeof key === "number"
  return typeof type === "string" && type.trim() !== "" && hasKey ? type : undefined
}
