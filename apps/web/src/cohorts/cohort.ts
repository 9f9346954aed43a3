import type { Success } from "../api/contract.ts"

/** A cohort as the API answers it. */
export type Cohort = Success<"GET", "/api/projects/:project_id/cohorts/:id/">

export const COHORTS_PATH = "/api/projects/:project_id/cohorts/"
export const COHORT_PATH = "/api/projects/:project_id/cohorts/:id/"

/** The prefix of every read of a project's cohorts (list, cohort, persons, activity): what a write to one makes stale. */
export const cohortsPrefix = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/cohorts/`

/** What kind of cohort it is, in words. */
export const cohortKind = (cohort: { readonly is_static: boolean }): string => cohort.is_static ? "Static" : "Dynamic"

/** A cohort's name as shown: PostHog allows none. */
export const cohortName = (cohort: { readonly name: string | null; readonly id: number }): string =>
  cohort.name === null || cohort.name.trim() === "" ? `Cohort ${cohort.id}` : cohort.name
