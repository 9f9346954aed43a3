import type { Call, FormCall, Target } from "../targets/target.ts"
import { uniqueKey } from "./feature-flags-support.ts"
import { expectReply, invalid } from "./scenario.ts"

/** The cohort endpoints, named as in packages/api. */
export const COHORTS = {
  list: { group: "cohorts", endpoint: "list" },
  create: { group: "cohorts", endpoint: "create" },
  projectActivity: { group: "cohorts", endpoint: "projectActivity" },
  retrieve: { group: "cohorts", endpoint: "retrieve" },
  update: { group: "cohorts", endpoint: "update" },
  replace: { group: "cohorts", endpoint: "replace" },
  destroy: { group: "cohorts", endpoint: "destroy" },
  persons: { group: "cohorts", endpoint: "persons" },
  addPersons: { group: "cohorts", endpoint: "addPersons" },
  removePerson: { group: "cohorts", endpoint: "removePerson" },
  activity: { group: "cohorts", endpoint: "activity" }
} as const

/** The fields PostHog answers a cohort with, in its order. */
export const COHORT_FIELDS = [
  "id", "name", "description", "groups", "deleted", "filters", "query", "version", "pending_version", "is_calculating",
  "created_by", "created_at", "last_calculation", "errors_calculating", "last_error_message", "count", "is_static",
  "cohort_type", "experiment_set"
]

/** Where a scenario works: a key and its project. */
export interface At {
  readonly key: string
  readonly project: number | string
}

/** A cohort name no other scenario or run has taken, so that a `search` for it finds only it. */
export const cohortName = (stem: string) => uniqueKey(`cohort ${stem}`)

export const person = (key: string, value: unknown, operator = "exact") => ({ type: "person", key, value, operator })
export const cohortFilter = (id: number) => ({ type: "cohort", key: "id", value: id })
export const group = (type: "AND" | "OR", ...values: ReadonlyArray<unknown>) => ({ type, values })
/** PostHog's usual shape: an OR of AND groups. */
export const properties = (...groups: ReadonlyArray<ReadonlyArray<unknown>>) => ({
  properties: group("OR", ...groups.map((values) => group("AND", ...values)))
})

/** Every refusal of a cohort's filters names the field `filters`, with PostHog's default code. */
export const filtersRefusal = (detail: string, code = "invalid") => invalid("filters", detail, code)
/** PostHog's refusals of a body as a whole name no field. */
export const refusal = (detail: string) => invalid(null, detail, "invalid")
export const csvRefusal = (detail: string) => invalid("csv", detail, "invalid")

export const postCohort = (target: Target, at: At, body: unknown) =>
  target.call(COHORTS.create, { key: at.key, params: { project_id: at.project }, body })

/** Creates a cohort and insists on 201; answers the cohort. */
export const createCohort = async (target: Target, at: At, body: Record<string, unknown>): Promise<any> => {
  const reply = await postCohort(target, at, { name: cohortName("made"), ...body })
  expectReply(reply, 201)
  return reply.body
}

/** A static cohort holding these distinct ids. */
export const createStatic = (target: Target, at: At, ids: ReadonlyArray<string>, extra: Record<string, unknown> = {}) =>
  createCohort(target, at, { is_static: true, _create_static_person_ids: ids, ...extra })

export const cohortCall = (at: At, id: number | string, extra: Omit<Call, "key" | "params"> = {}): Call => ({
  key: at.key,
  params: { project_id: at.project, id },
  ...extra
})

export const patchCohort = (target: Target, at: At, id: number | string, body: unknown) =>
  target.call(COHORTS.update, cohortCall(at, id, { body }))

/** A form carrying a CSV, as PostHog's console uploads one. */
export const csvForm = (csv: string, fields: ReadonlyArray<readonly [string, string]> = []): FormCall => ({
  fields,
  files: { csv: { name: "members.csv", content: csv } }
})

/** A static cohort's members, every page. */
export const membersOf = async (target: Target, at: At, id: number): Promise<Array<string>> => {
  const reply = await target.call(COHORTS.persons, cohortCall(at, id, { query: { limit: 1000 } }))
  expectReply(reply, 200)
  return reply.body.results.map((member: { name: string }) => member.name)
}
