import { useApi } from "../api/use-api.ts"
import type { Flag } from "./flag.tsx"
import type { SummaryNames } from "./release-words.ts"

/** How many of the project's cohorts are read for their names; a cohort beyond them is shown by id. */
const NAMED_COHORTS = 100

/**
 * The names a page of flags' summaries use: the project's cohorts and group types, and the flags on the
 * page (what a condition on another flag names). What cannot be read leaves its ids as they are.
 */
export const useSummaryNames = (projectId: string, flags: ReadonlyArray<Flag>): SummaryNames => {
  const params = { project_id: projectId }
  const cohorts = useApi("/api/projects/:project_id/cohorts/", { params, query: { limit: String(NAMED_COHORTS), basic: "true" } })
  const groupTypes = useApi("/api/projects/:project_id/groups_types/", { params })
  return {
    cohorts: new Map(cohorts.status === "ready"
      ? cohorts.data.results.flatMap((cohort) => cohort.name === null || cohort.name === "" ? [] : [[cohort.id, cohort.name] as const])
      : []),
    groupTypes: new Map(groupTypes.status === "ready"
      ? groupTypes.data.map((groupType) => [groupType.group_type_index, groupType.name_plural ?? `${groupType.group_type}(s)`] as const)
      : []),
    flags: new Map(flags.map((flag) => [flag.id, flag.key] as const))
  }
}
