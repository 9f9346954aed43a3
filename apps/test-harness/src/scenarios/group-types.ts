import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { createFlag, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { askEach, tokenOf } from "./flag-definitions.ts"
import { askFlags } from "./flag-evaluation.ts"
import { freshProject, GROUP_TYPE_NOT_FOUND, GROUP_TYPES, listGroupTypes } from "./group-types-support.ts"
import { BAD_KEY, denied, expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

const at = (project: number | string, extra: Record<string, string | number> = {}) => ({ project_id: project, ...extra })

/** A new key of B's owner with these scopes (and restrictions), made over the API as a client would. */
const keyOf = async (target: Target, ownerKey: string, body: object): Promise<string> => {
  const reply = await target.call({ group: "personalApiKeys", endpoint: "create" }, { key: ownerKey, body: { label: uniqueKey("groups"), ...body } })
  expectReply(reply, 201)
  return reply.body.value
}

const names = (list: ReadonlyArray<{ group_type_index: number; group_type: string }>) => list.map((type) => `${type.group_type_index}:${type.group_type}`)

const FIELDS = ["group_type", "group_type_index", "name_singular", "name_plural", "detail_dashboard", "default_columns", "created_at"]

/** A scenario on a new project of organization B, whose group types are its own. */
const inFreshProject = (name: string, run: (target: Target, world: World, project: number) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context) => {
    const world = needWorld(context)
    await run(context.target, world, await freshProject(context.target, world))
  }
})

/** `count` column names of `length` characters each, all different. */
const columnsOf = (count: number, length: number) => Array.from({ length: count }, (_, i) => String(i).padEnd(length, "c"))

/** PostHog's `groups_types` endpoints, and the group type names evaluation reads. */
export const groupTypeScenarios: ReadonlyArray<Scenario> = [
  inFreshProject("group types: a name takes the lowest free index, the list is by index, display names and columns are set, a deleted index is taken again", async (target, world, project) => {
    const key = world.keys.ownerB
    expectReply(await target.call(GROUP_TYPES.list, { key, params: at(project) }), 200, [])
    const company = await target.call(GROUP_TYPES.create, { key, params: at(project), body: { group_type: "company" } })
    expectReply(company, 201)
    assert.deepEqual(Object.keys(company.body), FIELDS)
    assert.deepEqual({ ...company.body, created_at: null }, {
      group_type: "company",
      group_type_index: 0,
      name_singular: null,
      name_plural: null,
      detail_dashboard: null,
      default_columns: null,
      created_at: null
    })
    assert.match(company.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    for (const group_type of ["team", "region"]) {
      expectReply(await target.call(GROUP_TYPES.create, { key, params: at(project), body: { group_type } }), 201)
    }
    expectReply(await target.call(GROUP_TYPES.destroy, { key, params: at(project, { group_type_index: 1 }) }), 204)
    // The freed index is the lowest free one again.
    const store = await target.call(GROUP_TYPES.create, { key, params: at(project), body: { group_type: "store" } })
    expectReply(store, 201)
    assert.equal(store.body.group_type_index, 1)
    const listed = await listGroupTypes(target, key, project)
    assert.deepEqual(names(listed), ["0:company", "1:store", "2:region"])
    assert.deepEqual(listed[0], company.body)

    const updated = await target.call(GROUP_TYPES.updateMetadata, {
      key,
      params: at(project),
      body: [{ group_type_index: 0, name_singular: "Company", name_plural: "Companies" }, { group_type_index: 2, name_plural: "Regions" }]
    })
    expectReply(updated, 200)
    assert.deepEqual(updated.body.map((type: any) => [type.group_type, type.name_singular, type.name_plural]), [
      ["company", "Company", "Companies"],
      ["store", null, null],
      ["region", null, "Regions"]
    ])
    const columns = await target.call(GROUP_TYPES.setDefaultColumns, { key, params: at(project), body: { group_type_index: 2, default_columns: ["name", "size"] } })
    expectReply(columns, 200)
    assert.deepEqual([columns.body.group_type, columns.body.name_plural, columns.body.default_columns], ["region", "Regions", ["name", "size"]])
    assert.deepEqual((await listGroupTypes(target, key, project)).map((type: any) => type.default_columns), [null, null, ["name", "size"]])
    // The project tells whether it has group types.
    const projectReply = await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: at(project) })
    expectReply(projectReply, 200)
    assert.equal(projectReply.body.has_group_types, true)
    for (const index of [0, 1, 2]) expectReply(await target.call(GROUP_TYPES.destroy, { key, params: at(project, { group_type_index: index }) }), 204)
    const emptied = await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: at(project) })
    assert.equal(emptied.body.has_group_types, false)
  }),
  inFreshProject("group types: 400 for each rule of create, update_metadata and set_default_columns with the exact body, and nothing half-written", async (target, world, project) => {
    const key = world.keys.ownerB
    const create = (body: unknown) => target.call(GROUP_TYPES.create, { key, params: at(project), body })
    const cases: ReadonlyArray<readonly [unknown, unknown]> = [
      [{}, invalid("group_type", "This field is required.", "required")],
      [{ group_type: "" }, invalid("group_type", "This field may not be blank.", "blank")],
      [{ group_type: "   " }, invalid("group_type", "This field may not be blank.", "blank")],
      [{ group_type: null }, invalid("group_type", "This field may not be null.", "null")],
      [{ group_type: 7 }, invalid("group_type", "Not a valid string.")],
      [{ group_type: "x".repeat(401) }, invalid("group_type", "Ensure this field has no more than 400 characters.", "max_length")],
      [{ group_type: "nul\u0000" }, invalid("group_type", "Null characters are not allowed.", "null_characters_not_allowed")],
      [["company"], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
    ]
    for (const [body, error] of cases) expectReply(await create(body), 400, error)
    for (const group_type of ["a", "b", "c", "d", "e"]) expectReply(await create({ group_type }), 201)
    expectReply(await create({ group_type: "a" }), 400, invalid("group_type", "There is already a group type with this name.", "unique"))
    expectReply(await create({ group_type: "f" }), 400, invalid(null, "A project can have at most 5 group types."))

    const update = (body: unknown) => target.call(GROUP_TYPES.updateMetadata, { key, params: at(project), body })
    const updates: ReadonlyArray<readonly [unknown, number, unknown]> = [
      [{ group_type_index: 0 }, 400, invalid(null, "Expected a list of items but got type \"dict\".", "not_a_list")],
      [["a"], 400, invalid(null, "Invalid data. Expected a dictionary, but got str.")],
      [[{ name_singular: "A" }], 400, invalid("group_type_index", "This field is required.", "required")],
      [[{ group_type_index: "zero" }], 400, invalid("group_type_index", "A valid integer is required.")],
      [[{ group_type_index: 0.5 }], 400, invalid("group_type_index", "A valid integer is required.")],
      [[{ group_type_index: 0, name_singular: "x".repeat(401) }], 400, invalid("name_singular", "Ensure this field has no more than 400 characters.", "max_length")],
      [[{ group_type_index: 0, name_plural: ["A"] }], 400, invalid("name_plural", "Not a valid string.")],
      [[{ group_type_index: 0, default_columns: "name" }], 400, invalid("default_columns", "Expected a list of items but got type \"str\".", "not_a_list")],
      [[{ group_type_index: 0, default_columns: columnsOf(101, 5) }], 400, invalid("default_columns", "Ensure this field has no more than 100 elements.", "max_length")],
      // At most 100 rows, refused before any is read.
      [Array.from({ length: 101 }, () => ({ group_type_index: 9 })), 400, invalid(null, "Ensure this field has no more than 100 elements.", "max_length")],
      [[{ group_type_index: 0, name_singular: "First" }, { group_type_index: 9 }], 404, GROUP_TYPE_NOT_FOUND],
      // The first row is good; the second is refused, so neither is written.
      [[{ group_type_index: 0, name_singular: "First" }, { group_type_index: 1, name_plural: 5 }], 400, invalid("name_plural", "Not a valid string.")]
    ]
    for (const [body, status, error] of updates) expectReply(await update(body), status, error)
    assert.deepEqual((await listGroupTypes(target, key, project)).map((type: any) => type.name_singular), [null, null, null, null, null])
    expectReply(await update([]), 200)

    const columns = (body: unknown) => target.call(GROUP_TYPES.setDefaultColumns, { key, params: at(project), body })
    const columnCases: ReadonlyArray<readonly [unknown, number, unknown]> = [
      [{ default_columns: ["name"] }, 400, invalid("group_type_index", "This field is required.", "required")],
      [{ group_type_index: 7, default_columns: ["name"] }, 404, GROUP_TYPE_NOT_FOUND],
      [{ group_type_index: 0 }, 400, invalid("default_columns", "This field is required.", "required")],
      [{ group_type_index: 0, default_columns: "name" }, 400, invalid("default_columns", "Expected a list of items but got type \"str\".", "not_a_list")],
      [{ group_type_index: 0, default_columns: ["name", 3] }, 400, invalid("default_columns__1", "Not a valid string.")],
      [{ group_type_index: 0, default_columns: columnsOf(101, 5) }, 400, invalid("default_columns", "Ensure this field has no more than 100 elements.", "max_length")],
      [{ group_type_index: 0, default_columns: ["name", "c".repeat(401)] }, 400, invalid("default_columns__1", "Ensure this field has no more than 400 characters.", "max_length")]
    ]
    for (const [body, status, error] of columnCases) expectReply(await columns(body), status, error)
    assert.deepEqual((await listGroupTypes(target, key, project)).map((type: any) => type.default_columns), [null, null, null, null, null])
    // The bounds themselves are taken: 100 rows, 100 columns of 400 characters.
    expectReply(await update(Array.from({ length: 100 }, (_, i) => ({ group_type_index: i % 5, name_singular: `Type ${i}` }))), 200)
    expectReply(await columns({ group_type_index: 0, default_columns: columnsOf(100, 400) }), 200)
    assert.deepEqual((await listGroupTypes(target, key, project)).map((type: any) => type.default_columns)[0], columnsOf(100, 400))
    for (const index of [5, 9, -1, "x", "01x"]) {
      expectReply(await target.call(GROUP_TYPES.destroy, { key, params: at(project, { group_type_index: index }) }), 404, GROUP_TYPE_NOT_FOUND)
    }
  }),
  inFreshProject("group types: 401 without or with a bad key, 403 without group:read or group:write or for a key restricted to another project, 404 for unknown and other tenants' projects", async (target, world, project) => {
    expectReply(await target.call(GROUP_TYPES.create, { key: world.keys.ownerB, params: at(project), body: { group_type: "company" } }), 201)
    const groupRead = await keyOf(target, world.keys.ownerB, { scopes: ["group:read"] })
    const groupWrite = await keyOf(target, world.keys.ownerB, { scopes: ["group:write"] })
    const projectOnly = await keyOf(target, world.keys.ownerB, { scopes: ["project:read", "feature_flag:write"] })
    const elsewhere = await keyOf(target, world.keys.ownerB, { scopes: ["*"], scoped_teams: [world.projectB] })
    const calls = [
      { ref: GROUP_TYPES.list, params: at(project), scope: "group:read" },
      { ref: GROUP_TYPES.create, params: at(project), body: { group_type: "team" }, scope: "group:write" },
      { ref: GROUP_TYPES.updateMetadata, params: at(project), body: [{ group_type_index: 0, name_singular: "Company" }], scope: "group:write" },
      { ref: GROUP_TYPES.setDefaultColumns, params: at(project), body: { group_type_index: 0, default_columns: ["name"] }, scope: "group:write" },
      { ref: GROUP_TYPES.destroy, params: at(project, { group_type_index: 0 }), scope: "group:write" }
    ] as const
    for (const { ref, params, scope, ...rest } of calls) {
      const body = "body" in rest ? rest.body : undefined
      expectReply(await target.call(ref, { params, body }), 401, NOT_AUTHENTICATED)
      expectReply(await target.call(ref, { key: "phx_not_a_key", params, body }), 401, BAD_KEY)
      expectReply(await target.call(ref, { key: projectOnly, params, body }), 403, missingScope(scope))
      if (scope === "group:write") expectReply(await target.call(ref, { key: groupRead, params, body }), 403, missingScope(scope))
      expectReply(
        await target.call(ref, { key: elsewhere, params, body }),
        403,
        denied(`API key does not have access to the requested project: ID ${project}.`)
      )
      // Another organization's project, an unknown one and a malformed id answer alike; so does a write body that is bad.
      for (const other of [world.projectA, 999_999, "not-a-project"]) {
        const foreign = { ...params, project_id: other }
        expectReply(await target.call(ref, { key: world.keys.ownerB, params: foreign, body }), 404, NOT_FOUND)
        expectReply(await target.call(ref, { key: world.keys.ownerB, params: foreign, body: { not: "checked" } }), 404, NOT_FOUND)
      }
    }
    // group:write grants group:read; a member of the organization needs no more than the scope.
    expectReply(await target.call(GROUP_TYPES.list, { key: groupWrite, params: at(project) }), 200)
    const readable = await target.call(GROUP_TYPES.list, { key: groupRead, params: at(project) })
    expectReply(readable, 200)
    assert.deepEqual(names(readable.body), ["0:company"])
    expectReply(await target.call(GROUP_TYPES.list, { key: world.keys.ownerA, params: at(project) }), 404, NOT_FOUND)
  }),
  inFreshProject("group types: a group flag reads the group by its type's name in /flags, /decide and the definitions' group_type_mapping; deleted, the flag is off", async (target, world, project) => {
    const key = world.keys.ownerB
    const token = await tokenOf(target, key, project)
    const flag = await createFlag(target, { key, project }, { key: uniqueKey("for-companies"), filters: { ...rolledOut(100), aggregation_group_type_index: 1 } })
    const ask = async (groups: Record<string, string>, path: "flags" | "decide" = "flags") => {
      const reply = await askFlags(target, { token, distinct_id: "person-1", groups }, { v: path === "flags" ? "2" : "4", path })
      expectReply(reply, 200)
      return reply.body.flags[flag.key]
    }
    const definitions = async () => {
      const replies = await askEach(target, { key, token, project })
      for (const reply of replies) expectReply(reply, 200)
      return replies[0]!
    }
    const before = await definitions()
    assert.deepEqual(before.body.group_type_mapping, {})
    assert.deepEqual([(await ask({ company: "acme" })).enabled, (await ask({ company: "acme" })).reason.code], [false, "no_group_type"])

    for (const group_type of ["team", "company"]) {
      expectReply(await target.call(GROUP_TYPES.create, { key, params: at(project), body: { group_type } }), 201)
    }
    const after = await definitions()
    assert.deepEqual(after.body.group_type_mapping, { "0": "team", "1": "company" })
    assert.notEqual(after.headers?.["etag"], before.headers?.["etag"])
    for (const path of ["flags", "decide"] as const) {
      const on = await ask({ company: "acme" }, path)
      assert.deepEqual([on.enabled, on.reason.code], [true, "condition_match"])
      // The group's index, or another type's name, is not the group.
      assert.equal((await ask({ "1": "acme", team: "acme" }, path)).enabled, false)
    }

    expectReply(await target.call(GROUP_TYPES.destroy, { key, params: at(project, { group_type_index: 1 }) }), 204)
    assert.deepEqual((await definitions()).body.group_type_mapping, { "0": "team" })
    const off = await ask({ company: "acme" })
    assert.deepEqual([off.enabled, off.reason.code], [false, "no_group_type"])
  })
]
