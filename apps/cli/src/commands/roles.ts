import type { Role, RoleMembership } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, UsageError } from "../output.ts"
import { allPages } from "../paging.ts"
import { type ApiClient, checkPayload } from "../remote.ts"
import { given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

const nameArgument = Argument.String("name").pipe(Argument.withDescription("Role name, unique in the organization (any letter case)"))

const LEVEL: Record<number, string> = { 21: "can only view", 37: "can always edit" }

/** A role flattened for tables: its members are counted, its level named. */
const row = (role: Role) => ({
  id: role.id,
  name: role.name,
  flags: `${role.feature_flags_access_level} ${LEVEL[role.feature_flags_access_level]}`,
  members: role.members.length,
  created_at: role.created_at
})

/** A role membership flattened for tables: the interesting fields live on the nested user. */
const memberRow = (membership: RoleMembership) => ({
  id: membership.id,
  uuid: membership.user.uuid,
  email: membership.user.email,
  level: membership.organization_member.level,
  joined_at: membership.joined_at
})

const role = resource({
  noun: "role",
  scope: inOrganization,
  id: Argument.String("role").pipe(Argument.withDescription("Role id (uuid)")),
  show: (found: Role) => [details(row(found)), ...found.members.map((member) => `  ${member.user.email} (${member.user.uuid})`)].join("\n")
})

const list = role.list({
  description: "List an organization's roles, oldest first",
  columns: ["id", "name", "flags", "members", "created_at"],
  row,
  fetch: ({ client, at }, query) => client.roles.list({ params: at, query })
})

const create = role.create({
  description: "Make a role (administrator level)",
  input: { name: nameArgument },
  flags: {
    featureFlagsAccessLevel: Flag.String("feature-flags-access-level").pipe(
      Flag.withDescription("21 can only view (members edit only the flags granted to the role), 37 can always edit (the default)"),
      Flag.optional
    )
  },
  body: (values) => Effect.succeed({ name: values.name, ...given({ feature_flags_access_level: values.featureFlagsAccessLevel }) }),
  schema: (core) => core.RoleCreate,
  send: ({ client, at }, payload) => client.roles.create({ params: at, payload })
})

const rename = role.update("rename", {
  description: "Rename a role (administrator level)",
  input: { name: nameArgument },
  body: (values) => Effect.succeed({ name: values.name }),
  schema: (core) => core.RoleUpdate,
  send: ({ client, at, id }, payload) => client.roles.update({ params: { ...at, id }, payload })
})

const remove = role.delete({
  description: "Delete a role with its memberships and every flag's grant to it (administrator level)",
  send: ({ client, at, id }) => client.roles.destroy({ params: { ...at, id } }),
  done: (id) => `Deleted role ${id}, its memberships and its flags' grants.`
})

const members = role.listOf("members", {
  description: "List a role's members, in the order they joined",
  columns: ["id", "uuid", "email", "level", "joined_at"],
  row: memberRow,
  fetch: ({ client, at, id }, query) => client.roles.memberships({ params: { ...at, role_id: id }, query })
})

/** The user uuid of an organization's member named by e-mail (asked of the members list) or by uuid. */
const userUuidOf = (client: ApiClient, at: { readonly organization_id: string }, member: string) =>
  member.includes("@")
    ? client.members.list({ params: at, query: { email: member } }).pipe(
      Effect.flatMap((page) =>
        Option.match(Option.fromNullishOr(page.results[0]), {
          onNone: () => Effect.fail(new UsageError({ message: `no member of the organization has the address ${member}` })),
          onSome: (found) => Effect.succeed(found.user.uuid as string)
        })
      )
    )
    : Effect.succeed(member)

const addMember = role.onItem("add-member", {
  description: "Add a member of the organization to a role (administrator level)",
  input: { member: Argument.String("member").pipe(Argument.withDescription("The member's e-mail address or user uuid")) },
  run: ({ client, at, id, values, json }) =>
    Effect.gen(function*() {
      const user_uuid = yield* userUuidOf(client, at, values.member)
      const payload = yield* checkPayload((core) => core.RoleMembershipCreate, { user_uuid })
      const membership = yield* client.roles.addMembership({ params: { ...at, role_id: id }, payload })
      yield* emit(json, (added: RoleMembership) => details(memberRow(added)))(membership)
    })
})

const removeMember = role.onItem("remove-member", {
  description: "Take a member out of a role (administrator level)",
  input: {
    member: Argument.String("member").pipe(Argument.withDescription("The member's e-mail address, user uuid, or role membership id"))
  },
  run: ({ client, at, id, values, json }) =>
    Effect.gen(function*() {
      const params = { ...at, role_id: id }
      const { results } = yield* allPages((query) => client.roles.memberships({ params, query }), {})
      const wanted = values.member.toLowerCase()
      const membership = results.find((found) =>
        found.id === wanted || found.user.uuid === wanted || found.user.email.toLowerCase() === wanted
      )
      if (membership === undefined) return yield* new UsageError({ message: `${values.member} is not a member of role ${id}` })
      yield* client.roles.removeMembership({ params: { ...params, id: membership.id } })
      yield* emit(json, () => `Removed ${membership.user.email} from role ${id}.`)({
        id: membership.id,
        user: membership.user.uuid,
        removed: true
      })
    })
})

export const roles = Command.make("roles").pipe(
  Command.withDescription("An organization's roles and their members, through the API (--url, --key)"),
  Command.withSubcommands([list, create, rename, remove, members, addMember, removeMember])
)
