import { cohortProperties } from "../cohorts/properties.ts"
import { rewriteReferences } from "../feature-flags/references.ts"
import { integerOf } from "../shared/python.ts"
import { FLAGS_FILE_FORMAT, type FileCohort, type FileFlag, type FileGroupType, type FlagsFile } from "./document.ts"

/** A project's flags, cohorts and group types as the API answers them: what a file is made from. */
export interface ProjectRecords {
  readonly groupTypes: ReadonlyArray<FileGroupType>
  readonly cohorts: ReadonlyArray<{
    readonly id: number
    readonly name: string | null
    readonly description: string
    readonly is_static: boolean
    readonly filters: unknown
    readonly groups: unknown
  }>
  readonly flags: ReadonlyArray<{ readonly id: number } & FileFlag>
}

/** Code point order, whatever the machine's locale: the same file from every machine. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The file of a project's live records, sorted by name so that a file kept in git changes only where the
 * project did; or why the project cannot be written as one (a record the file could not name).
 */
export const flagsFileOf = (records: ProjectRecords): FlagsFile | string => {
  const cohortNames = new Map<number, string>()
  const cohortIds = new Map<string, number>()
  for (const cohort of records.cohorts) {
    if (cohort.name === null || cohort.name.trim() === "") return `Cohort ${cohort.id} has no name, and a file names cohorts by name: name it first.`
    const other = cohortIds.get(cohort.name)
    if (other !== undefined) {
      return `Cohorts ${other} and ${cohort.id} are both named "${cohort.name}", and a file names cohorts by name: rename one first.`
    }
    cohortNames.set(cohort.id, cohort.name)
    cohortIds.set(cohort.name, cohort.id)
  }
  const flagKeys = new Map(records.flags.map((flag) => [flag.id, flag.key]))
  let missing: string | undefined
  const named = (what: string, names: ReadonlyMap<number, string>) => (value: unknown) => {
    const id = integerOf(value)
    const name = id === null ? undefined : names.get(id)
    if (name === undefined) missing ??= `${what} ${JSON.stringify(value)}`
    return name
  }
  const byNames = (json: unknown) => rewriteReferences(json, { cohort: named("cohort", cohortNames), flag: named("flag", flagKeys) })

  const cohorts: Array<FileCohort> = []
  for (const cohort of records.cohorts) {
    const properties = cohort.is_static ? undefined : cohortProperties(cohort)
    cohorts.push({
      name: cohort.name!,
      description: cohort.description,
      is_static: cohort.is_static,
      filters: properties === undefined ? null : { properties: byNames(properties) as Record<string, unknown> }
    })
    if (missing !== undefined) return `The cohort "${cohort.name}" names ${missing}, which is not a live record of the project.`
  }
  const flags: Array<FileFlag> = []
  for (const flag of records.flags) {
    flags.push({
      key: flag.key,
      name: flag.name,
      active: flag.active,
      filters: byNames(flag.filters) as Record<string, unknown>,
      ensure_experience_continuity: flag.ensure_experience_continuity,
      tags: [...flag.tags].sort(),
      evaluation_runtime: flag.evaluation_runtime,
      is_remote_configuration: flag.is_remote_configuration,
      has_encrypted_payloads: flag.has_encrypted_payloads
    })
    if (missing !== undefined) return `The flag "${flag.key}" names ${missing}, which is not a live record of the project.`
  }
  return {
    hedgerow_flags_file: FLAGS_FILE_FORMAT,
    group_types: [...records.groupTypes]
      .map(({ group_type_index, group_type, name_singular, name_plural }) => ({ group_type_index, group_type, name_singular, name_plural }))
      .sort((a, b) => a.group_type_index - b.group_type_index),
    cohorts: cohorts.sort((a, b) => byText(a.name, b.name)),
    flags: flags.sort((a, b) => byText(a.key, b.key))
  }
}
