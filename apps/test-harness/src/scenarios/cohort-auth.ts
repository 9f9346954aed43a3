import assert from "node:assert/strict"
import type { EndpointRef, Target } from "../targets/target.ts"
import { COHORTS, createStatic } from "./cohorts-support.ts"
import { HARD_DELETE } from "./feature-flags-support.ts"
import { BAD_KEY, denied, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

interface Endpoint {
  readonly label: string
  readonly ref: EndpointRef
  /** The scopes it needs, in the order PostHog checks them. */
  readonly scopes: ReadonlyArray<string>
  readonly onCohort: boolean
  readonly body?: unknown
}

const READ = "cohort:read"
const WRITE = "cohort:write"
const ACTIVITY = "activity_log:read"

/** Every cohort endpoint with the scopes it needs and a body it would take. */
const ENDPOINTS: ReadonlyArray<Endpoint> = [
  { label: "list", ref: COHORTS.list, scopes: [READ], onCohort: false },
  { label: "create", ref: COHORTS.create, scopes: [WRITE], onCohort: false, body: { name: "auth", is_static: true } },
  { label: "project activity", ref: COHORTS.projectActivity, scopes: [ACTIVITY], onCohort: false },
  { label: "retrieve", ref: COHORTS.retrieve, scopes: [READ], onCohort: true },
  { label: "update", ref: COHORTS.update, scopes: [WRITE], onCohort: true, body: { description: "changed" } },
  { label: "replace", ref: COHORTS.replace, scopes: [WRITE], onCohort: true, body: { description: "replaced" } },
  { label: "destroy", ref: COHORTS.destroy, scopes: [WRITE], onCohort: true },
  { label: "persons", ref: COHORTS.persons, scopes: [READ, "person:read"], onCohort: true },
  { label: "add persons", ref: COHORTS.addPersons, scopes: [WRITE], onCohort: true, body: { person_ids: ["auth"] } },
  { label: "remove person", ref: COHORTS.removePerson, scopes: [WRITE], onCohort: true, body: { person_id: "auth" } },
  { label: "activity", ref: COHORTS.activity, scopes: [ACTIVITY], onCohort: true }
]

const call = (target: Target, endpoint: Endpoint, key: string | undefined, project: number | string, cohort: number | string) =>
  target.call(endpoint.ref, {
    key,
    params: endpoint.onCohort ? { project_id: project, id: cohort } : { project_id: project },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body })
  })

const holds = (key: ReadonlyArray<string>, scope: string) => key.includes(scope) || key.includes(scope.replace(/:read$/, ":write"))

export const cohortAuthScenarios: ReadonlyArray<Scenario> = [
  {
    name: "every cohort endpoint answers 401 without a key and with an unknown key",
    run: async ({ target, primary }) => {
      for (const endpoint of ENDPOINTS) {
        const none = await call(target, endpoint, undefined, primary.project ?? 1, 1)
        assert.deepEqual({ status: none.status, body: none.body }, { status: 401, body: NOT_AUTHENTICATED }, endpoint.label)
        const bad = await call(target, endpoint, "phx_thisKeyDoesNotExistAnywhere0000000000000000", primary.project ?? 1, 1)
        assert.deepEqual({ status: bad.status, body: bad.body }, { status: 401, body: BAD_KEY }, endpoint.label)
      }
    }
  },
  {
    name: "every cohort endpoint refuses a key without its scopes with 403 naming the first one missing, before looking anything up",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const cohort = await createStatic(target, { key: world.keys.ownerA, project: world.projectA }, ["auth"])
      const keys: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
        [world.keys.projectReadA, ["project:read"]],
        [world.keys.cohortReadA, [READ]],
        [world.keys.activityReadA, [ACTIVITY]]
      ]
      for (const [key, held] of keys) {
        for (const endpoint of ENDPOINTS) {
          const missing = endpoint.scopes.find((scope) => !holds(held, scope))
          // Another project, and an id that names nothing: the scope is refused first all the same.
          for (const [project, id] of [[world.projectA, cohort.id], [world.projectB, 999999]] as const) {
            const reply = await call(target, endpoint, key, project, id)
            if (missing !== undefined) expectReply(reply, 403, missingScope(missing))
            else assert.notEqual(reply.status, 403, `${endpoint.label}: ${JSON.stringify(reply.body)}`)
          }
        }
      }
    }
  },
  {
    name: "another organization's project and cohorts are 404 on every cohort endpoint; a key restricted elsewhere is 403",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const theirs = await createStatic(target, { key: world.keys.ownerB, project: world.projectB }, ["theirs"])
      const mine = await createStatic(target, { key: world.keys.ownerA, project: world.projectA }, ["mine"])
      for (const endpoint of ENDPOINTS) {
        expectReply(await call(target, endpoint, world.keys.ownerA, world.projectB, theirs.id), 404, NOT_FOUND)
        // Project A's path with B's cohort: unknown there (a hard delete is refused whatever the id).
        if (endpoint.onCohort) {
          const reply = await call(target, endpoint, world.keys.ownerA, world.projectA, theirs.id)
          if (endpoint.ref === COHORTS.destroy) expectReply(reply, 405, HARD_DELETE)
          else expectReply(reply, 404, NOT_FOUND)
        }
        expectReply(
          await call(target, endpoint, world.keys.bothScopedToProjectB, world.projectA, mine.id),
          403,
          denied(`API key does not have access to the requested project: ID ${world.projectA}.`)
        )
      }
      const still = await target.call(COHORTS.persons, { key: world.keys.ownerB, params: { project_id: world.projectB, id: theirs.id } })
      assert.deepEqual(still.body.results.map((member: { name: string }) => member.name), ["theirs"])
    }
  }
]
