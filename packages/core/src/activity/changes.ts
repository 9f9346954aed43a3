import type { ActivityChange } from "./model.ts"

/**
 * The changes between two versions, as PostHog lists them: one per field whose value differs, `created`
 * when it was empty before, `deleted` when it is empty after (empty: null, "", [] or {}), `changed` otherwise.
 */

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === "" ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0)

/** Structural equality of JSON values (object key order does not matter, as for Python dicts). */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as ReadonlyArray<unknown>
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]))
  }
  const left = Object.keys(a)
  const right = b as Record<string, unknown>
  return left.length === Object.keys(right).length &&
    left.every((key) => key in right && jsonEqual((a as Record<string, unknown>)[key], right[key]))
}

export const changesBetween = <T extends Record<string, unknown>>(
  type: string,
  fields: ReadonlyArray<keyof T & string>,
  before: T,
  after: T
): ReadonlyArray<ActivityChange> =>
  fields.flatMap((field): ReadonlyArray<ActivityChange> => {
    const left = before[field]
    const right = after[field]
    if (isEmpty(left) && isEmpty(right)) return []
    if (isEmpty(left)) return [{ type, action: "created", field, before: null, after: right }]
    if (isEmpty(right)) return [{ type, action: "deleted", field, before: left, after: null }]
    return jsonEqual(left, right) ? [] : [{ type, action: "changed", field, before: left, after: right }]
  })
