import assert from "node:assert/strict"
import type { Reply, Target } from "../targets/target.ts"
import { conditionGroup, createFlag, flagProperty, patchFlag, projectOf, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { mappingOf } from "./group-types-support.ts"
import {
  BAD_KEY,
  denied,
  envelope,
  expectReply,
  missingScope,
  needWorld,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type Scenario
} from "./scenario.ts"

/** The definitions endpoints, named as in packages/api. */
export const DEFINITIONS = {
  localEvaluation: { group: "flagDefinitions", endpoint: "localEvaluation" },
  definitions: { group: "flagDefinitions", endpoint: "definitions" },
  projectLocalEvaluation: { group: "flagDefinitions", endpoint: "projectLocalEvaluation" }
} as const

/** PostHog's 401 to a `?token=` that names no project. */
export const INCORRECT_CREDENTIALS = envelope("authentication_error", "authentication_failed", "Incorrect authentication credentials.")
/** PostHog's 403 to a token of a project the caller is no member of. */
export const NO_PROJECT_ACCESS = denied("You don't have access to the project.")

/** A project's public token, read as its members read it. */
export const tokenOf = async (target: Target, key: string, project: number | string): Promise<string> => {
  const reply = await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: project } })
  expectReply(reply, 200)
  return reply.body.api_token
}

interface Ask {
  readonly key?: string | undefined
  readonly token?: string | undefined
  readonly project?: number | string
  readonly sendCohorts?: boolean
  readonly ifNoneMatch?: string
}

/** Each of the three paths with the same question; the project-scoped one with `project` (and the token, if given). */
export const askEach = (target: Target, ask: Ask): Promise<ReadonlyArray<Reply>> => {
  const query: Record<string, string> = {}
  if (ask.token !== undefined) query["token"] = ask.token
  if (ask.sendCohorts === true) query["send_cohorts"] = ""
  const call = {
    key: ask.key,
    query,
    ...(ask.ifNoneMatch === undefined ? {} : { headers: { "if-none-match": ask.ifNoneMatch } })
  }
  return Promise.all([
    target.call(DEFINITIONS.localEvaluation, call),
    target.call(DEFINITIONS.definitions, call),
    target.call(DEFINITIONS.projectLocalEvaluation, { ...call, params: { project_id: ask.project ?? "@current" } })
  ])
}

/** One flag of the definitions, by key. */
const definitionOf = (reply: Reply, key: string) => reply.body.flags.find((flag: { key: string }) => flag.key === key)

/** The definitions of a flag as it was answered by the API (no dependency in it). */
const expectedDefinition = (flag: any, project: number) => ({
  id: flag.id,
  team_id: project,
  name: flag.name,
  key: flag.key,
  filters: flag.filters,
  deleted: false,
  active: flag.active,
  ensure_experience_continuity: flag.ensure_experience_continuity,
  version: flag.version,
  evaluation_runtime: flag.evaluation_runtime,
  bucketing_identifier: null
})

const rawOf = (target: Target) => {
  assert.ok(target.raw, "this scenario needs raw HTTP")
  return target.raw
}

/** The definitions for local evaluation: PostHog's three paths, the flags' shape, ETags, and who may read them. */
export const flagDefinitionScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag definitions: the three paths answer the project's live flags for local evaluation, dependencies with their chain",
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const at = { key: primary.key, project }
      const token = await tokenOf(target, primary.key, project)
      const base = await createFlag(target, at, { key: uniqueKey("defs-base"), name: "Base", filters: rolledOut(30) })
      const dependent = await createFlag(target, at, {
        key: uniqueKey("defs-dependent"),
        filters: { groups: [conditionGroup([flagProperty(String(base.id))])] }
      })
      const off = await createFlag(target, at, { key: uniqueKey("defs-off"), active: false, ensure_experience_continuity: true })
      const gone = await createFlag(target, at, { key: uniqueKey("defs-gone") })
      expectReply(await patchFlag(target, at, gone.id, { deleted: true }), 200)
      const remote = await createFlag(target, at, { key: uniqueKey("defs-remote"), is_remote_configuration: true })

      const replies = await askEach(target, { key: primary.key, token, project })
      // Each index of the project's group types, as text, to its name (other scenarios may add some).
      const groupTypes = await mappingOf(target, primary.key, project)
      for (const reply of replies) {
        expectReply(reply, 200)
        assert.deepEqual(Object.keys(reply.body), ["flags", "group_type_mapping", "cohorts"])
        assert.deepEqual(reply.body.group_type_mapping, groupTypes)
        assert.deepEqual(reply.body.cohorts, {})
        assert.deepEqual(definitionOf(reply, base.key), expectedDefinition(base, project))
        assert.deepEqual(definitionOf(reply, off.key), expectedDefinition(off, project))
        assert.deepEqual(definitionOf(reply, dependent.key).filters.groups[0].properties, [
          { ...flagProperty(base.key), dependency_chain: [base.key] }
        ])
        // Deleted flags are not sent, nor remote configuration flags, which are fetched one by one.
        assert.equal(definitionOf(reply, gone.key), undefined)
        assert.equal(definitionOf(reply, remote.key), undefined)
        const ids = reply.body.flags.map((flag: { id: number }) => flag.id)
        assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "flags in id order")
      }
      assert.deepEqual(replies[1]!.body, replies[0]!.body)
      assert.deepEqual(replies[2]!.body, replies[0]!.body)
      // Without a token, the paths without a project read the caller's current one (other scenarios move it).
      const current = await target.call({ group: "projects", endpoint: "retrieve" }, { key: primary.key, params: { project_id: "@current" } })
      expectReply(current, 200)
      const untokened = await askEach(target, { key: primary.key, project: current.body.id })
      for (const reply of untokened) {
        expectReply(reply, 200)
        assert.deepEqual(reply.body, untokened[0]!.body)
        assert.ok(reply.body.flags.every((flag: { team_id: number }) => flag.team_id === current.body.id))
      }
      // `send_cohorts` asks for the cohorts' definitions; the project's flags name none.
      for (const reply of await askEach(target, { key: primary.key, token, project, sendCohorts: true })) {
        expectReply(reply, 200)
        assert.deepEqual(reply.body.cohorts, {})
      }
    }
  },
  {
    name: "flag definitions: a weak ETag and private, must-revalidate; 304 with no body for a matching If-None-Match, weak, strong or bare; any flag change moves the ETag",
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const at = { key: primary.key, project }
      const token = await tokenOf(target, primary.key, project)
      const flag = await createFlag(target, at, { key: uniqueKey("defs-etag"), filters: rolledOut(10) })
      const [first] = await askEach(target, { key: primary.key, token, project })
      expectReply(first!, 200)
      const etag = first!.headers?.["etag"] ?? ""
      assert.match(etag, /^W\/"[0-9a-f]{32}"$/)
      assert.equal(first!.headers?.["cache-control"], "private, must-revalidate")
      const opaque = etag.slice(3, -1)
      for (const ifNoneMatch of [etag, `"${opaque}"`, opaque, `W/"other", ${etag}`, "*"]) {
        for (const reply of await askEach(target, { key: primary.key, token, project, ifNoneMatch })) {
          assert.equal(reply.status, 304, ifNoneMatch)
          assert.equal(reply.body, null)
          assert.equal(reply.headers?.["etag"], etag)
          assert.equal(reply.headers?.["cache-control"], "private, must-revalidate")
        }
      }
      for (const reply of await askEach(target, { key: primary.key, token, project, ifNoneMatch: `W/"${opaque.slice(1)}"` })) {
        expectReply(reply, 200)
      }

      expectReply(await patchFlag(target, at, flag.id, { name: "renamed" }), 200)
      const [changed] = await askEach(target, { key: primary.key, token, project, ifNoneMatch: etag })
      expectReply(changed!, 200)
      assert.notEqual(changed!.headers?.["etag"], etag)
      assert.equal(definitionOf(changed!, flag.key).name, "renamed")
      const [again] = await askEach(target, { key: primary.key, token, project, ifNoneMatch: changed!.headers?.["etag"] ?? "" })
      assert.equal(again!.status, 304)
    }
  },
  {
    name: "flag definitions: 401 without a valid key or for a token naming no project, 403 without the scope or for a project out of reach, 404 for other tenants' project paths",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const tokenA = await tokenOf(target, world.keys.ownerA, world.projectA)
      const tokenB = await tokenOf(target, world.keys.ownerB, world.projectB)
      const expectEach = async (ask: Ask, status: number, body?: unknown) => {
        for (const reply of await askEach(target, ask)) expectReply(reply, status, body)
      }
      await expectEach({ token: tokenA, project: world.projectA }, 401, NOT_AUTHENTICATED)
      await expectEach({ key: "phx_not_a_key", token: tokenA, project: world.projectA }, 401, BAD_KEY)
      await expectEach({ key: world.keys.ownerA, token: "phc_unknown", project: world.projectA }, 401, INCORRECT_CREDENTIALS)
      await expectEach({ key: world.keys.projectReadA, token: tokenA, project: world.projectA }, 403, missingScope("feature_flag:read"))
      await expectEach({ key: world.keys.ownerA, token: tokenB, project: world.projectA }, 403, NO_PROJECT_ACCESS)
      await expectEach(
        { key: world.keys.bothScopedToProjectB, token: tokenA, project: world.projectA },
        403,
        denied(`API key does not have access to the requested project: ID ${world.projectA}.`)
      )
      await expectEach(
        { key: world.keys.bothScopedToB, token: tokenA, project: world.projectA },
        403,
        denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      )
      await expectEach({ key: world.keys.flagReadA, token: tokenA, project: world.projectA }, 200)
      // The token names the project, whatever the path says, as PostHog's routing reads it.
      for (const reply of await askEach(target, { key: world.keys.ownerB, token: tokenB, project: world.projectA })) {
        expectReply(reply, 200)
        assert.ok(reply.body.flags.every((flag: { team_id: number }) => flag.team_id === world.projectB))
      }
      const projectPath = (key: string, project: number | string) =>
        target.call(DEFINITIONS.projectLocalEvaluation, { key, params: { project_id: project } })
      expectReply(await projectPath(world.keys.ownerA, world.projectB), 404, NOT_FOUND)
      expectReply(await projectPath(world.keys.ownerA, 999_999), 404, NOT_FOUND)
      expectReply(await projectPath(world.keys.ownerA, "not-a-project"), 404, NOT_FOUND)
      expectReply(await projectPath(world.keys.projectReadA, world.projectB), 403, missingScope("feature_flag:read"))
    }
  },
  {
    name: "flag definitions over HTTP: with and without a trailing slash, 304 without a body, and no CORS headers for another origin",
    needs: ["transport"],
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const token = await tokenOf(target, primary.key, project)
      const headers = { authorization: `Bearer ${primary.key}`, origin: "https://elsewhere.example" }
      const paths = [
        `/flags/definitions?token=${token}&send_cohorts`,
        `/flags/definitions/?token=${token}`,
        `/api/feature_flag/local_evaluation?token=${token}`,
        `/api/feature_flag/local_evaluation/?token=${token}&send_cohorts`,
        `/api/projects/${project}/feature_flags/local_evaluation`,
        `/api/projects/${project}/feature_flags/local_evaluation/?send_cohorts`
      ]
      for (const path of paths) {
        const reply = await rawOf(target)({ method: "GET", path, headers })
        expectReply(reply, 200)
        assert.match(reply.headers.get("content-type") ?? "", /^application\/json/)
        assert.equal(reply.headers.get("access-control-allow-origin"), null, path)
        const etag = reply.headers.get("etag")!
        const unchanged = await rawOf(target)({ method: "GET", path, headers: { ...headers, "if-none-match": etag } })
        assert.equal(unchanged.status, 304, path)
        assert.equal(unchanged.body, null, "no body")
        assert.equal(unchanged.headers.get("etag"), etag)
      }
    }
  }
]
