import { isRecord } from "../shared/fields.ts"

/**
 * A flag's filters and a cohort's filters name other records by id: a `cohort` filter names a cohort in
 * its `value`, a `flag` filter names the flag it depends on in its `key`. Ids differ from one project
 * (or deployment) to the next, so copying a flag or writing it to a file replaces them, and these
 * functions say what each reference becomes.
 */
export interface ReferenceRewrite {
  /** The new `value` of a `cohort` filter, given the one it has; undefined keeps it. */
  readonly cohort: (value: unknown) => unknown
  /** The new `key` of a `flag` filter, given the one it has; undefined keeps it. */
  readonly flag: (key: unknown) => unknown
  /**
   * The new group type index of a flag (`aggregation_group_type_index`, on the flag or a condition) or
   * of a group property (`group_type_index`); undefined keeps it. Indexes differ between projects too:
   * each project numbers its group types in the order they came.
   */
  readonly groupTypeIndex?: (index: unknown) => unknown
}

const INDEX_FIELDS = ["aggregation_group_type_index", "group_type_index"] as const

/**
 * A copy of `json` with every reference rewritten, however deep it sits. Stored filters are at most
 * a hundred levels deep (a write refuses more), so the walk's depth stays small.
 */
export const rewriteReferences = (json: unknown, rewrite: ReferenceRewrite): unknown => {
  if (Array.isArray(json)) return json.map((item) => rewriteReferences(item, rewrite))
  if (!isRecord(json)) return json
  const copy: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(json)) copy[name] = rewriteReferences(value, rewrite)
  if (copy["type"] === "cohort" && "value" in copy) {
    const replaced = rewrite.cohort(copy["value"])
    if (replaced !== undefined) copy["value"] = replaced
  }
  if (copy["type"] === "flag" && "key" in copy) {
    const replaced = rewrite.flag(copy["key"])
    if (replaced !== undefined) copy["key"] = replaced
  }
  if (rewrite.groupTypeIndex !== undefined) {
    for (const field of INDEX_FIELDS) {
      if (copy[field] === undefined || copy[field] === null) continue
      const replaced = rewrite.groupTypeIndex(copy[field])
      if (replaced !== undefined) copy[field] = replaced
    }
  }
  return copy
}

/** Every reference `json` holds, in the order met: the cohort values, flag keys and group type indexes as written. */
export const referencesIn = (json: unknown): {
  readonly cohorts: ReadonlyArray<unknown>
  readonly flags: ReadonlyArray<unknown>
  readonly groupTypeIndexes: ReadonlyArray<unknown>
} => {
  const cohorts: Array<unknown> = []
  const flags: Array<unknown> = []
  const groupTypeIndexes: Array<unknown> = []
  rewriteReferences(json, {
    cohort: (value) => void cohorts.push(value),
    flag: (key) => void flags.push(key),
    groupTypeIndex: (index) => void groupTypeIndexes.push(index)
  })
  return { cohorts, flags, groupTypeIndexes }
}
