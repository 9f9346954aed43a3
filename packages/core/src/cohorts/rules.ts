import { cohortReading, MAX_COHORT_DEPTH } from "../evaluation/cohort-reading.ts"
import { cohortDefinitions } from "../evaluation/cohorts.ts"
import { ValidationError } from "../shared/errors.ts"
import type { CohortId } from "../shared/ids.ts"
import { cohortsNaming, cohortsReached, flagReaches, flagsReaching, lookupIn, referenceFault } from "./graph.ts"
import type { CohortBrief, FlagNode } from "./model.ts"
import { cohortProperties, type Definable, filtersIn, isBehavioralCohort, namedCohortId } from "./properties.ts"

/**
 * The cohort rules that read other cohorts and the flags: PostHog's messages, given what the store holds
 * of the project (its cohorts, deleted ones too, and the flags that name some cohort).
 */

export interface ProjectCohorts {
  readonly cohorts: ReadonlyArray<CohortBrief>
  readonly flags: ReadonlyArray<FlagNode>
}

const invalid = (detail: string, attr: string | null = null) => ValidationError.field(attr, detail, "invalid")

/** A cohort naming unknown cohorts, or itself through others, as PostHog's save refuses it. */
export const referenceError = (
  cohort: Definable & { readonly id: number | null },
  project: ProjectCohorts
): ValidationError | undefined => {
  const fault = referenceFault(cohort, lookupIn(project.cohorts))
  return fault === "loop"
    ? invalid("Cohorts cannot reference other cohorts in a loop.")
    : fault === "unknown"
    ? invalid("Invalid Cohort ID in filter")
    : undefined
}

/** The ids of the live dynamic cohorts whose reading goes deeper than evaluation reads. */
const tooDeep = (cohorts: ReadonlyArray<CohortBrief>): ReadonlySet<number> => {
  const definitions = cohortDefinitions(cohorts)
  const reading = cohortReading(definitions)
  const found = new Set<number>()
  for (const [id, definition] of definitions) {
    if ((reading.depth(definition) ?? 0) > MAX_COHORT_DEPTH) found.add(Number(id))
  }
  return found
}

/** The id a cohort being created stands under while the rules read it: no stored cohort has it. */
const NEW_COHORT = -1 as CohortId

/**
 * The refusal of a write that would make a cohort nest deeper than evaluation reads (counting groups within
 * groups, and cohorts named): the written cohort itself, or any cohort naming it, however indirectly.
 * Such a cohort could never match. A cohort that is already that deep does not hold up writes to others.
 */
export const depthError = (
  cohort: Omit<CohortBrief, "id" | "name"> & { readonly id: CohortId | null },
  project: ProjectCohorts
): ValidationError | undefined => {
  const written: CohortBrief = { ...cohort, id: cohort.id ?? NEW_COHORT, name: null }
  const after = tooDeep([...project.cohorts.filter((other) => other.id !== written.id), written])
  if (after.size === 0) return undefined
  const before = tooDeep(project.cohorts)
  if ([...after].every((id) => before.has(id))) return undefined
  return invalid(`Cohorts cannot be nested more than ${MAX_COHORT_DEPTH} levels deep, counting groups within groups and cohorts naming cohorts.`)
}

/**
 * A cohort that active flags reach may not take filters on events, itself or through the cohorts it
 * names (static ones excepted, whose members are a list): flags cannot evaluate those. `written` is the
 * definition the cohort is to have; `attr` is where PostHog raises it: `filters` at that field's turn,
 * none when a static cohort turns dynamic. The first fault in the order the filters are written.
 */
export const flagUseError = (
  cohort: number,
  written: Definable,
  project: ProjectCohorts,
  attr: string | null
): ValidationError | undefined => {
  const cohortOf = lookupIn(project.cohorts)
  if (!project.flags.some((flag) => flag.active && flagReaches(flag, cohort, cohortOf))) return undefined
  const walked = new Set<number>()
  for (const filter of filtersIn(cohortProperties(written))) {
    if (filter["type"] === "behavioral") {
      return ValidationError.field(attr, "Behavioral filters cannot be added to cohorts used in feature flags.", "behavioral_cohort_found")
    }
    const named = namedCohortId(filter)
    // A cohort an earlier filter's walk reached has had all it reaches checked.
    if (named === null || walked.has(named)) continue
    for (const dependency of cohortsReached([named], cohortOf)) {
      walked.add(dependency.id)
      if (dependency.is_static || !isBehavioralCohort(dependency)) continue
      return ValidationError.field(
        attr,
        `A cohort dependency (${dependency.name ?? "None"}) has filters based on events. These cohorts can't be used in feature flags.`,
        "behavioral_cohort_found"
      )
    }
  }
  return undefined
}

/** PostHog names at most five dependents, then how many more. */
const someNames = (names: ReadonlyArray<string>) =>
  names.length > 5 ? `${names.slice(0, 5).join(", ")}, and ${names.length - 5} more` : names.join(", ")

/** What keeps a cohort from being deleted: active flags reaching it, then live cohorts naming it. */
export const deletionError = (cohort: number, project: ProjectCohorts): ValidationError | undefined => {
  const cohortOf = lookupIn(project.cohorts)
  const flags = flagsReaching(cohort, project.flags.filter((flag) => flag.active && !flag.deleted), cohortOf)
  if (flags.length > 0) {
    return invalid(
      `This cohort is used in ${flags.length} active feature flag(s): ${flags.map((flag) => flag.name || flag.key).join(", ")}. ` +
        "Please remove the cohort from these feature flags before deleting it."
    )
  }
  const naming = cohortsNaming(cohort, project.cohorts)
  if (naming.length > 0) {
    return invalid(
      `This cohort is used as criteria in ${naming.length} other cohort(s): ${someNames(naming.map((other) => other.name || "Unnamed"))}. ` +
        "Please remove this cohort from those cohort definitions before deleting it."
    )
  }
  return undefined
}
