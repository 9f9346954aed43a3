import type { ProjectId } from "@hedgerow/core"
import { Effect } from "effect"
import { call } from "./api-call.ts"
import { atLeast } from "./goals.ts"
import { flagsPath } from "./flag-scenarios.ts"
import { FlagSeeder, HedgerowFixture } from "./hedgerow-target.ts"
import { groupProperty, person } from "./property-condition.ts"
import type { Scenario } from "./scenario.ts"

/** The project's plain flags, as the other `/flags` scenario's project has. */
const PLAIN_FLAGS = 100

/** Flags added to those that target cohorts and a named group type. */
export const TARGETED_FLAGS = 20

/** Members of the static cohort: a list as a team imports one. */
const STATIC_MEMBERS = 1_000

/** A flag's condition on a cohort's members, or on its other people. */
const inCohort = (id: number, operator: "in" | "not_in" = "in") => ({ key: "id", type: "cohort", operator, value: id })

/**
 * A project of its own, so that the other scenarios' figures stay theirs: 100 plain flags as theirs, the
 * cohorts and the group type the targeted flags read (a dynamic cohort of two ORed property groups, a
 * second one nesting the first and negating a property, a static list of distinct ids, the group type
 * `company`), and the targeted flags. Gives the project's public token.
 */
const targetingSetup = Effect.gen(function*() {
  const fixture = yield* HedgerowFixture
  const made = yield* call("POST", `/api/organizations/${fixture.organizationId}/projects/`, { name: "Targeting" })
  const projectId = made.id as ProjectId
  yield* (yield* FlagSeeder).seed({ projectId, userId: fixture.userId }, 0, PLAIN_FLAGS)
  const project = `/api/projects/${projectId}`
  const company = (yield* call("POST", `${project}/groups_types/`, { group_type: "company" })).group_type_index
  const staff = yield* call("POST", `${project}/cohorts/`, {
    name: "Staff",
    filters: {
      properties: {
        type: "OR",
        values: [
          { type: "AND", values: [person("email", "icontains", "@example.com")] },
          { type: "AND", values: [person("plan", "exact", ["enterprise", "team"]), person("seats", "gt", "10")] }
        ]
      }
    }
  })
  const staffOutsideEu = yield* call("POST", `${project}/cohorts/`, {
    name: "Staff outside the EU",
    filters: {
      properties: {
        type: "AND",
        // Inside a cohort, a cohort is named without an operator.
        values: [{ type: "AND", values: [{ key: "id", type: "cohort", value: staff.id }, { ...person("country", "exact", ["DE", "FR", "NL"]), negation: true }] }]
      }
    }
  })
  const listed = yield* call("POST", `${project}/cohorts/`, { name: "Imported list", is_static: true })
  const ids = Array.from({ length: STATIC_MEMBERS }, (_, i) => `customer-${i}`)
  for (let from = 0; from < ids.length; from += 500) {
    yield* call("PATCH", `${project}/cohorts/${listed.id}/add_persons_to_static_cohort/`, { person_ids: ids.slice(from, from + 500) })
  }
  const conditions = [
    [inCohort(staff.id)],
    [inCohort(staffOutsideEu.id)],
    [inCohort(listed.id)],
    [inCohort(staff.id, "not_in"), person("email", "is_set", "is_set")]
  ]
  for (let i = 0; i < TARGETED_FLAGS; i++) {
    const filters = i % 5 === 4
      ? {
        aggregation_group_type_index: company,
        groups: [{
          properties: [groupProperty(company, "plan", "exact", ["enterprise"])],
          rollout_percentage: 50
        }]
      }
      : { groups: [{ properties: conditions[i % 5 % conditions.length], rollout_percentage: (i * 17) % 101 }] }
    yield* call("POST", flagsPath(projectId), { key: `targeted-${i}`, name: `Targeted flag ${i}`, filters })
  }
  return made.api_token
})

/**
 * Remote evaluation where flags target cohorts (dynamic, nested, negated, a static list the request is
 * looked up in) and a group by its type's name, as posthog-js and posthog-node send it with `groups`,
 * beside the plain `/flags` scenario's 100 flags.
 */
export const targetingScenarios: ReadonlyArray<Scenario> = [
  {
    name: `POST /flags?v=2, ${PLAIN_FLAGS} flags and ${TARGETED_FLAGS} more on cohorts and a named group`,
    throughputGoal: atLeast(0.25),
    setup: Effect.gen(function*() {
      const token = yield* targetingSetup
      return {
        method: "POST",
        path: "/flags/?v=2",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          token,
          distinct_id: "person-[<id>]",
          person_properties: { email: "someone@example.com", country: "US" },
          groups: { company: "acme" },
          group_properties: { company: { plan: "enterprise" } }
        }),
        idReplacement: true
      } as const
    })
  }
]
