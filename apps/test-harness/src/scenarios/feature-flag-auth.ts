import assert from "node:assert/strict"
import type { EndpointRef, Target } from "../targets/target.ts"
import { createFlag, FLAGS, ROLE_ACCESS, uniqueKey } from "./feature-flags-support.ts"
import {
  BAD_KEY,
  denied,
  expectReply,
  missingScope,
  needWorld,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type Scenario
} from "./scenario.ts"

/** What an endpoint addresses: the project, one flag, or one role-access entry of a flag. */
interface Ids {
  readonly project: number | string
  readonly flag: number | string
  readonly roleAccess: number | string
}

interface Endpoint {
  readonly label: string
  readonly ref: EndpointRef
  /** The scope a 403 names; access controls accept `feature_flag:read` or `access_control:read`. */
  readonly scope: string | readonly [string, string]
  readonly params: (ids: Ids) => Record<string, string | number>
  readonly body?: (role: string) => unknown
  readonly query?: Readonly<Record<string, string>>
}

const onProject = (ids: Ids) => ({ project_id: ids.project })
const onFlag = (ids: Ids) => ({ project_id: ids.project, id: ids.flag })
const onRoleList = (ids: Ids) => ({ project_id: ids.project, feature_flag_id: ids.flag })
const onRoleAccess = (ids: Ids) => ({ project_id: ids.project, feature_flag_id: ids.flag, id: ids.roleAccess })

const READ = "feature_flag:read"
const WRITE = "feature_flag:write"
const ACTIVITY = "activity_log:read"
const ACCESS_CONTROL = [READ, "access_control:read"] as const

/** Every flag endpoint with the scope it needs. */
const ENDPOINTS: ReadonlyArray<Endpoint> = [
  { label: "list", ref: FLAGS.list, scope: READ, params: onProject },
  { label: "list of deleted flags", ref: FLAGS.list, scope: READ, params: onProject, query: { deleted: "true" } },
  { label: "create", ref: FLAGS.create, scope: WRITE, params: onProject, body: () => ({ key: uniqueKey("auth") }) },
  { label: "project activity", ref: FLAGS.projectActivity, scope: ACTIVITY, params: onProject },
  { label: "retrieve", ref: FLAGS.retrieve, scope: READ, params: onFlag },
  { label: "update", ref: FLAGS.update, scope: WRITE, params: onFlag, body: () => ({ name: "changed" }) },
  { label: "destroy", ref: FLAGS.destroy, scope: WRITE, params: onFlag },
  { label: "status", ref: FLAGS.status, scope: READ, params: onFlag },
  { label: "activity", ref: FLAGS.activity, scope: ACTIVITY, params: onFlag },
  { label: "access_controls", ref: FLAGS.accessControls, scope: ACCESS_CONTROL, params: onFlag },
  { label: "global_access_controls", ref: FLAGS.globalAccessControls, scope: ACCESS_CONTROL, params: onFlag },
  { label: "create_static_cohort_for_flag", ref: FLAGS.createStaticCohort, scope: WRITE, params: onFlag, body: () => ({}) },
  { label: "dashboard", ref: FLAGS.dashboard, scope: WRITE, params: onFlag, body: () => ({}) },
  { label: "enrich_usage_dashboard", ref: FLAGS.enrichUsageDashboard, scope: WRITE, params: onFlag, body: () => ({}) },
  { label: "role access list", ref: ROLE_ACCESS.list, scope: READ, params: onRoleList },
  { label: "role access create", ref: ROLE_ACCESS.create, scope: WRITE, params: onRoleList, body: (role) => ({ role_id: role }) },
  { label: "role access retrieve", ref: ROLE_ACCESS.retrieve, scope: READ, params: onRoleAccess },
  { label: "role access destroy", ref: ROLE_ACCESS.destroy, scope: WRITE, params: onRoleAccess }
]

const call = (target: Target, endpoint: Endpoint, key: string | undefined, ids: Ids, role: string) =>
  target.call(endpoint.ref, {
    key,
    params: endpoint.params(ids),
    ...(endpoint.body ? { body: endpoint.body(role) } : {}),
    ...(endpoint.query ? { query: endpoint.query } : {})
  })

const expectMissingScope = (label: string, reply: { status: number; body: any }, scope: Endpoint["scope"]) => {
  if (typeof scope === "string") {
    assert.deepEqual({ status: reply.status, body: reply.body }, { status: 403, body: missingScope(scope) }, label)
  } else {
    assert.equal(reply.status, 403, label)
    assert.ok(scope.map(missingScope).some((body) => JSON.stringify(body) === JSON.stringify(reply.body)), `${label}: ${JSON.stringify(reply.body)}`)
  }
}

/** A flag of A with one role-access entry: real ids for every endpoint. */
const fixtures = async (target: Target, key: string, project: number, role: string) => {
  const flag = await createFlag(target, { key, project }, { key: uniqueKey("auth-fixture") })
  const access = await target.call(ROLE_ACCESS.create, { key, params: { project_id: project, feature_flag_id: flag.id }, body: { role_id: role } })
  expectReply(access, 201)
  return { project, flag: flag.id as number, roleAccess: access.body.id as number }
}

export const featureFlagAuthScenarios: ReadonlyArray<Scenario> = [
  {
    name: "every feature-flag endpoint answers 401 without a key and with an unknown key",
    run: async ({ target, primary }) => {
      // 401 comes before anything is looked up, so made-up ids do.
      const ids = { project: primary.project ?? 1, flag: 1, roleAccess: 1 }
      const role = "00000000-0000-4000-8000-000000000000"
      for (const endpoint of ENDPOINTS) {
        const none = await call(target, endpoint, undefined, ids, role)
        assert.deepEqual({ status: none.status, body: none.body }, { status: 401, body: NOT_AUTHENTICATED }, endpoint.label)
        const bad = await call(target, endpoint, "phx_thisKeyDoesNotExistAnywhere0000000000000000", ids, role)
        assert.deepEqual({ status: bad.status, body: bad.body }, { status: 401, body: BAD_KEY }, endpoint.label)
      }
    }
  },
  {
    name: "every feature-flag endpoint refuses a key without its scope with 403 naming the scope",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ids = await fixtures(target, world.keys.ownerA, world.projectA, world.roles.viewA)
      for (const endpoint of ENDPOINTS) {
        expectMissingScope(endpoint.label, await call(target, endpoint, world.keys.projectReadA, ids, world.roles.editA), endpoint.scope)
      }
    }
  },
  {
    name: "scope comes before tenancy: a key without the scope gets 403 for any project or flag",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ids = { project: world.projectB, flag: 999999, roleAccess: 999999 }
      for (const endpoint of ENDPOINTS) {
        expectMissingScope(endpoint.label, await call(target, endpoint, world.keys.projectReadA, ids, world.roles.editA), endpoint.scope)
      }
    }
  },
  {
    name: "a feature_flag:read key reads flags and their role access but cannot write or read activity",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ids = await fixtures(target, world.keys.ownerA, world.projectA, world.roles.viewA)
      for (const endpoint of ENDPOINTS) {
        const reply = await call(target, endpoint, world.keys.flagReadA, ids, world.roles.editA)
        if (endpoint.scope === READ || endpoint.scope === ACCESS_CONTROL) assert.equal(reply.status, 200, `${endpoint.label}: ${JSON.stringify(reply.body)}`)
        else expectMissingScope(endpoint.label, reply, endpoint.scope)
      }
    }
  },
  {
    name: "an activity_log:read key reads flag activity only; an access_control:read key reads access controls only",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ids = await fixtures(target, world.keys.ownerA, world.projectA, world.roles.viewA)
      for (const endpoint of ENDPOINTS) {
        const activity = await call(target, endpoint, world.keys.activityReadA, ids, world.roles.editA)
        if (endpoint.scope === ACTIVITY) assert.equal(activity.status, 200, `${endpoint.label}: ${JSON.stringify(activity.body)}`)
        else expectMissingScope(`${endpoint.label} (activity key)`, activity, endpoint.scope)
        const access = await call(target, endpoint, world.keys.accessControlReadA, ids, world.roles.editA)
        if (endpoint.scope === ACCESS_CONTROL) assert.equal(access.status, 200, `${endpoint.label}: ${JSON.stringify(access.body)}`)
        else expectMissingScope(`${endpoint.label} (access-control key)`, access, endpoint.scope)
      }
    }
  },
  {
    name: "unknown, malformed and out-of-range flag ids are 404 on every endpoint that takes one",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ids = await fixtures(target, world.keys.ownerA, world.projectA, world.roles.viewA)
      const foreign = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("foreign") })
      for (const endpoint of ENDPOINTS) {
        if (endpoint.params === onProject || endpoint.ref === FLAGS.destroy) continue
        for (const flag of [999999, "abc", "-1", "1.5", "2147483648", foreign.id]) {
          const reply = await call(target, endpoint, world.keys.ownerA, { ...ids, flag }, world.roles.editA)
          assert.deepEqual({ status: reply.status, body: reply.body }, { status: 404, body: NOT_FOUND }, `${endpoint.label} with flag ${flag}`)
        }
      }
    }
  },
  {
    name: "another organization's project, unknown and malformed projects are 404 on every feature-flag endpoint",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const own = await fixtures(target, world.keys.ownerA, world.projectA, world.roles.viewA)
      const theirs = await fixtures(target, world.keys.ownerB, world.projectB, world.roles.roleB)
      const cases: ReadonlyArray<Ids> = [
        theirs,
        { ...own, project: world.projectB },
        { ...own, project: 999999 },
        { ...own, project: "abc" },
        { ...own, project: "2147483648" }
      ]
      for (const endpoint of ENDPOINTS) {
        for (const ids of cases) {
          const reply = await call(target, endpoint, world.keys.ownerA, ids, world.roles.editA)
          assert.deepEqual({ status: reply.status, body: reply.body }, { status: 404, body: NOT_FOUND }, `${endpoint.label} in project ${ids.project}`)
        }
      }
    }
  },
  {
    name: "keys restricted to another organization or project are refused on this project's flags",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const own = { project_id: world.projectA }
      expectReply(
        await target.call(FLAGS.list, { key: world.keys.bothScopedToProjectB, params: own }),
        403,
        denied(`API key does not have access to the requested project: ID ${world.projectA}.`)
      )
      expectReply(
        await target.call(FLAGS.create, { key: world.keys.bothScopedToB, params: own, body: { key: uniqueKey("restricted") } }),
        403,
        denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      )
      expectReply(await target.call(FLAGS.list, { key: world.keys.bothScopedToProjectB, params: { project_id: world.projectB } }), 200)
      expectReply(await target.call(FLAGS.list, { key: world.keys.bothScopedToB, params: { project_id: world.projectB } }), 200)
    }
  }
]
