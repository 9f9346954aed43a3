import { rewriteReferences } from "../feature-flags/references.ts"
import { MAX_GROUP_TYPES } from "../group-types/model.ts"
import type { FileCohort, FileFlag, FileGroupType, FlagsFile } from "./document.ts"

/**
 * What importing a file into a project would do, record by record: records are matched by name (a
 * flag's key, a cohort's name, a group type's name); one the project lacks is created, one that differs
 * is updated (the fields named), the rest are unchanged. Records of the project that the file does not
 * hold are left alone: an import never deletes.
 */

export type RecordKind = "group type" | "cohort" | "flag"

export interface PlannedRecord {
  readonly kind: RecordKind
  readonly name: string
  readonly action: "create" | "update" | "unchanged"
  /** The fields an update changes. */
  readonly fields: ReadonlyArray<string>
}

export interface ImportPlan {
  /** Group types, then cohorts, then flags, each in the file's order. */
  readonly records: ReadonlyArray<PlannedRecord>
  /** The project's records the file does not name. */
  readonly leftAlone: ReadonlyArray<{ readonly kind: RecordKind; readonly name: string }>
  /** Each group type index of the file, as the project numbers (or will number) that group type. */
  readonly groupTypeIndexes: ReadonlyMap<number, number>
}

/** JSON text with every object's keys in order: two values are the same JSON when theirs match. */
const canonical = (json: unknown): string =>
  JSON.stringify(json, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value)

const changedFields = <A extends object>(wanted: A, current: A, fields: ReadonlyArray<keyof A & string>): ReadonlyArray<string> =>
  fields.filter((field) => canonical(wanted[field]) !== canonical(current[field]))

const FLAG_FIELDS = [
  "name", "active", "filters", "ensure_experience_continuity", "tags", "evaluation_runtime", "is_remote_configuration", "has_encrypted_payloads"
] as const satisfies ReadonlyArray<keyof FileFlag>
const COHORT_FIELDS = ["description", "is_static", "filters"] as const satisfies ReadonlyArray<keyof FileCohort>
const GROUP_TYPE_FIELDS = ["name_singular", "name_plural"] as const satisfies ReadonlyArray<keyof FileGroupType>

/**
 * Each group type index of the file, as the project numbers its group type of the same name; a group
 * type the project lacks takes the lowest free index, as creating it does. Or why there is no room.
 */
export const groupTypeIndexesIn = (
  wanted: ReadonlyArray<FileGroupType>,
  current: ReadonlyArray<FileGroupType>
): ReadonlyMap<number, number> | string => {
  const indexes = new Map<number, number>()
  const taken = new Set(current.map((type) => type.group_type_index))
  for (const type of wanted) {
    const same = current.find((other) => other.group_type === type.group_type)
    if (same !== undefined) {
      indexes.set(type.group_type_index, same.group_type_index)
      continue
    }
    let free = 0
    while (taken.has(free)) free++
    if (free >= MAX_GROUP_TYPES) return `The project has no free group type index for "${type.group_type}": a project holds at most ${MAX_GROUP_TYPES}.`
    taken.add(free)
    indexes.set(type.group_type_index, free)
  }
  return indexes
}

/** A file's filters with its group type indexes as the project numbers them. */
export const withProjectIndexes = (filters: unknown, indexes: ReadonlyMap<number, number>): unknown =>
  rewriteReferences(filters, {
    cohort: () => undefined,
    flag: () => undefined,
    groupTypeIndex: (index) => (typeof index === "number" ? indexes.get(index) : undefined)
  })

/** The plan of importing `file` into a project whose records, written as a file, are `current`. */
export const importPlan = (file: FlagsFile, current: FlagsFile): ImportPlan | string => {
  const indexes = groupTypeIndexesIn(file.group_types, current.group_types)
  if (typeof indexes === "string") return indexes
  const records: Array<PlannedRecord> = []
  const plan = <A extends object>(kind: RecordKind, name: string, wanted: A, found: A | undefined, fields: ReadonlyArray<keyof A & string>) => {
    if (found === undefined) return records.push({ kind, name, action: "create", fields: [] })
    const changed = changedFields(wanted, found, fields)
    records.push({ kind, name, action: changed.length === 0 ? "unchanged" : "update", fields: changed })
  }
  for (const type of file.group_types) {
    plan("group type", type.group_type, type, current.group_types.find((other) => other.group_type === type.group_type), GROUP_TYPE_FIELDS)
  }
  const currentCohorts = new Map(current.cohorts.map((cohort) => [cohort.name, cohort]))
  for (const cohort of file.cohorts) plan("cohort", cohort.name, cohort, currentCohorts.get(cohort.name), COHORT_FIELDS)
  const currentFlags = new Map(current.flags.map((flag) => [flag.key, flag]))
  for (const flag of file.flags) {
    // Tags are a set: the project's are read sorted, so the file's are compared sorted.
    const wanted = { ...flag, tags: [...flag.tags].sort(), filters: withProjectIndexes(flag.filters, indexes) as FileFlag["filters"] }
    plan("flag", flag.key, wanted, currentFlags.get(flag.key), FLAG_FIELDS)
  }
  const named = {
    "group type": new Set(file.group_types.map((type) => type.group_type)),
    cohort: new Set(file.cohorts.map((cohort) => cohort.name)),
    flag: new Set(file.flags.map((flag) => flag.key))
  }
  const leftAlone = [
    ...current.group_types.map((type) => ({ kind: "group type" as const, name: type.group_type })),
    ...current.cohorts.map((cohort) => ({ kind: "cohort" as const, name: cohort.name })),
    ...current.flags.map((flag) => ({ kind: "flag" as const, name: flag.key }))
  ].filter((record) => !named[record.kind].has(record.name))
  return { records, leftAlone, groupTypeIndexes: indexes }
}

/** Where the project's records are, by the names a file gives them. */
export interface ProjectIds {
  readonly cohorts: ReadonlyMap<string, number>
  readonly flags: ReadonlyMap<string, number>
  readonly groupTypeIndexes: ReadonlyMap<number, number>
}

/**
 * A file's filters as the project's API takes them: each cohort's name and flag's key replaced by its id
 * there (a flag names another flag by its id as text), each group type index by the project's.
 */
export const forProject = (filters: unknown, ids: ProjectIds): unknown =>
  rewriteReferences(filters, {
    cohort: (name) => (typeof name === "string" ? ids.cohorts.get(name) : undefined),
    flag: (key) => {
      const id = typeof key === "string" ? ids.flags.get(key) : undefined
      return id === undefined ? undefined : String(id)
    },
    groupTypeIndex: (index) => (typeof index === "number" ? ids.groupTypeIndexes.get(index) : undefined)
  })
