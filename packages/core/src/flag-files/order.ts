import { referencesIn } from "../feature-flags/references.ts"
import type { FileCohort, FileFlag, FlagsFile } from "./document.ts"

/**
 * Records in an order where each comes after those it names, so that an import can make them one by
 * one; or what makes that impossible (a name no record of the file has, or a loop). The walk keeps its
 * own stack, so no chain of references can exhaust the call stack.
 */
const ordered = <A>(
  records: ReadonlyArray<A>,
  nameOf: (record: A) => string,
  named: (record: A) => ReadonlyArray<unknown>,
  kind: string
): ReadonlyArray<A> | string => {
  const byName = new Map(records.map((record) => [nameOf(record), record]))
  for (const record of records) {
    for (const name of named(record)) {
      if (typeof name !== "string" || !byName.has(name)) {
        return `The ${kind} "${nameOf(record)}" names ${kind} ${JSON.stringify(name)}, which the file does not hold.`
      }
    }
  }
  const order: Array<A> = []
  const state = new Map<string, "open" | "done">()
  for (const start of records) {
    const stack: Array<{ readonly name: string; readonly leaving: boolean }> = [{ name: nameOf(start), leaving: false }]
    while (stack.length > 0) {
      const { name, leaving } = stack.pop()!
      if (leaving) {
        state.set(name, "done")
        order.push(byName.get(name)!)
        continue
      }
      const seen = state.get(name)
      if (seen === "done") continue
      if (seen === "open") return `The ${kind} "${name}" names itself through other ${kind}s, in a loop.`
      state.set(name, "open")
      stack.push({ name, leaving: true })
      for (const next of named(byName.get(name)!) as ReadonlyArray<string>) {
        if (state.get(next) !== "done") stack.push({ name: next, leaving: false })
      }
    }
  }
  return order
}

const cohortsNamed = (cohort: FileCohort): ReadonlyArray<unknown> => referencesIn(cohort.filters).cohorts

/** The cohorts and the flags of a file, each after those it names; or why they cannot be so ordered. */
export const inFileOrder = (file: FlagsFile): { readonly cohorts: ReadonlyArray<FileCohort>; readonly flags: ReadonlyArray<FileFlag> } | string => {
  const cohorts = ordered(file.cohorts, (cohort) => cohort.name, cohortsNamed, "cohort")
  if (typeof cohorts === "string") return cohorts
  const cohortNames = new Set(file.cohorts.map((cohort) => cohort.name))
  const groupIndexes = new Set(file.group_types.map((type) => type.group_type_index))
  for (const flag of file.flags) {
    const references = referencesIn(flag.filters)
    const unknownCohort = references.cohorts.find((name) => typeof name !== "string" || !cohortNames.has(name))
    if (unknownCohort !== undefined) {
      return `The flag "${flag.key}" names cohort ${JSON.stringify(unknownCohort)}, which the file does not hold.`
    }
    const unknownIndex = references.groupTypeIndexes.find((index) => typeof index !== "number" || !groupIndexes.has(index))
    if (unknownIndex !== undefined) {
      return `The flag "${flag.key}" names group type index ${JSON.stringify(unknownIndex)}, which the file's group_types do not hold.`
    }
  }
  const flags = ordered(file.flags, (flag) => flag.key, (flag) => referencesIn(flag.filters).flags, "flag")
  if (typeof flags === "string") return flags
  return { cohorts, flags }
}
