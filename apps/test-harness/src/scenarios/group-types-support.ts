import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { envelope, expectReply } from "./scenario.ts"

/** The group type endpoints, named as in packages/api. */
export const GROUP_TYPES = {
  list: { group: "groupTypes", endpoint: "list" },
  create: { group: "groupTypes", endpoint: "create" },
  updateMetadata: { group: "groupTypes", endpoint: "updateMetadata" },
  setDefaultColumns: { group: "groupTypes", endpoint: "setDefaultColumns" },
  destroy: { group: "groupTypes", endpoint: "destroy" }
} as const

/** PostHog's 404 for an index no group type of the project holds. */
export const GROUP_TYPE_NOT_FOUND = envelope("invalid_request", "not_found", "Group type not found")

export interface GroupTypeReply {
  readonly group_type: string
  readonly group_type_index: number
}

/** The project's group types, as the list answers them. */
export const listGroupTypes = async (target: Target, key: string, project: number | string): Promise<ReadonlyArray<GroupTypeReply>> => {
  const reply = await target.call(GROUP_TYPES.list, { key, params: { project_id: project } })
  expectReply(reply, 200)
  return reply.body
}

/** The `group_type_mapping` the project's group types make: each index, as text, to its name. */
export const mappingOf = async (target: Target, key: string, project: number | string): Promise<Record<string, string>> =>
  Object.fromEntries((await listGroupTypes(target, key, project)).map((type) => [String(type.group_type_index), type.group_type]))

/**
 * The index of the project's group type with this name, made through the API when the project has none:
 * scenarios share a project and run in any order, so it may be there already.
 */
export const groupTypeIndex = async (target: Target, key: string, project: number | string, name: string): Promise<number> => {
  const made = await target.call(GROUP_TYPES.create, { key, params: { project_id: project }, body: { group_type: name } })
  if (made.status === 201) return made.body.group_type_index
  const found = (await listGroupTypes(target, key, project)).find((type) => type.group_type === name)
  assert.ok(found, `the project has a group type named ${name}, or room for it (${made.status} ${JSON.stringify(made.body)})`)
  return found.group_type_index
}

let projects = 0
/**
 * A new project of organization B, made by its owner, whose group types are the scenario's alone (B's
 * owner, not A's: the primary key's current project stays where it is).
 */
export const freshProject = async (target: Target, world: World): Promise<number> => {
  const reply = await target.call({ group: "organizationProjects", endpoint: "create" }, {
    key: world.keys.ownerB,
    params: { organization_id: world.orgB },
    body: { name: `Group types ${++projects}` }
  })
  expectReply(reply, 201)
  return reply.body.id
}
