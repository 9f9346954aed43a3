import type { Role, RoleMembership } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag, UsageError } from "../output.ts"
import { allPages, listCommand, pageFlags } from "../paging.ts"
import { type ApiClient, checkPayload, currentOrgFlag, remoteFlags, withApi } from "../remote.ts"
import { given } from "../request-body.ts"

const roleArgument = Argument.String("role").pipe(Argument.withDescription("Role id (uuid)"))
const nameArgument = Argument.String("name").pipe(Argument.withDescription("Role name, unique in the organization (any letter case)"))
const memberArgument = Argument.String("member").pipe(Argument.withDescription("The member's e-mail address or user uuid"))

const LEVEL: Record<number, string> = { 21: "can only view", 37: "can always edit" }

/** A role flattened for tables: its members are counted, its level named. */
const row = (role: Role) => ({
  id: role.id,
  name: role.name,
  flags: `${role.feature_flags_access_level} ${LEVEL[role.feature_flags_access_level]}`,
  members: role.members.length,
  created_at: role.created_at
})
const summary = (role: Role) =>
  [details(row(role)), ...role.members.map((member) => `  ${member.user.email} (${member.user.uuid})`)].join("\n")

/** A role membership flattened for tables: the interesting fields live on the nested user. */
const memberRow = (membership: RoleMembership) => ({
  id: membership.id,
  uuid: membership.user.uuid,
  email: membership.user.email,
  level: membership.organization_member.level,
  joined_at: membership.joined_at
})

const levelFlag = Flag.String("feature-flags-access-level").pipe(
  Flag.withDescription("21 can only view (members edit only the flags granted to the role), 37 can always edit (the default)"),
  Flag.optional
)

const list = Command.make(
  "list",
  { ...remoteFlags, org: currentOrgFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "name", "flags", "members", "created_at"],
        (query) => client.roles.list({ params: { organization_id: options.org }, query }),
        row
      ))
).pipe(Command.withDescription("List an organization's roles, oldest first"))

const create = Command.make(
  "create",
  { ...remoteFlags, name: nameArgument, org: currentOrgFlag, featureFlagsAccessLevel: levelFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const body = { name: options.name, ...given({ feature_flags_access_level: options.featureFlagsAccessLevel }) }
        const payload = yield* checkPayload((core) => core.RoleCreate, body)
        const role = yield* client.roles.create({ params: { organization_id: options.org }, payload })
        yield* emit(options.json, summary)(role)
      }))
).pipe(Command.withDescription("Make a role (administrator level)"))

const rename = Command.make(
  "rename",
  { ...remoteFlags, role: roleArgument, name: nameArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.RoleUpdate, { name: options.name })
        const role = yield* client.roles.update({ params: { organization_id: options.org, id: options.role }, payload })
        yield* emit(options.json, summary)(role)
      }))
).pipe(Command.withDescription("Rename a role (administrator level)"))

const remove = Command.make(
  "delete",
  { ...remoteFlags, role: roleArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.roles.destroy({ params: { organization_id: options.org, id: options.role } }).pipe(
        Effect.andThen(emit(options.json, () => `Deleted role ${options.role}, its memberships and its flags' grants.`)({
          id: options.role,
          deleted: true
        }))
      ))
).pipe(Command.withDescription("Delete a role with its memberships and every flag's grant to it (administrator level)"))

const members = Command.make(
  "members",
  { ...remoteFlags, role: roleArgument, org: currentOrgFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "uuid", "email", "level", "joined_at"],
        (query) => client.roles.memberships({ params: { organization_id: options.org, role_id: options.role }, query }),
        memberRow
      ))
).pipe(Command.withDescription("List a role's members, in the order they joined"))

const isEmail = (member: string) => member.includes("@")

/** The user uuid of an organization's member named by e-mail (asked of the members list) or by uuid. */
const userUuidOf = (client: ApiClient, organization: string, member: string) =>
  isEmail(member)
    ? client.members.list({ params: { organization_id: organization }, query: { email: member } }).pipe(
      Effect.flatMap((page) =>
        Option.match(Option.fromNullishOr(page.results[0]), {
          onNone: () => Effect.fail(new UsageError({ message: `no member of the organization has the address ${member}` })),
          onSome: (found) => Effect.succeed(found.user.uuid as string)
        })
      )
    )
    : Effect.succeed(member)

const addMember = Command.make(
  "add-member",
  { ...remoteFlags, role: roleArgument, member: memberArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const user_uuid = yield* userUuidOf(client, options.org, options.member)
        const payload = yield* checkPayload((core) => core.RoleMembershipCreate, { user_uuid })
        const membership = yield* client.roles.addMembership({ params: { organization_id: options.org, role_id: options.role }, payload })
        yield* emit(options.json, (added: RoleMembership) => details(memberRow(added)))(membership)
      }))
).pipe(Command.withDescription("Add a member of the organization to a role (administrator level)"))

const removeMember = Command.make(
  "remove-member",
  {
    ...remoteFlags,
    role: roleArgument,
    member: Argument.String("member").pipe(Argument.withDescription("The member's e-mail address, user uuid, or role membership id")),
    org: currentOrgFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const params = { organization_id: options.org, role_id: options.role }
        const { results } = yield* allPages((query) => client.roles.memberships({ params, query }), {})
        const wanted = options.member.toLowerCase()
        const membership = results.find((found) =>
          found.id === wanted || found.user.uuid === wanted || found.user.email.toLowerCase() === wanted
        )
        if (membership === undefined) return yield* new UsageError({ message: `${options.member} is not a member of role ${options.role}` })
        yield* client.roles.removeMembership({ params: { ...params, id: membership.id } })
        yield* emit(options.json, () => `Removed ${membership.user.email} from role ${options.role}.`)({
          id: membership.id,
          user: membership.user.uuid,
          removed: true
        })
      }))
).pipe(Command.withDescription("Take a member out of a role (administrator level)"))

export const roles = Command.make("roles").pipe(
  Command.withDescription("An organization's roles and their members, through the API (--url, --key)"),
  Command.withSubcommands([list, create, rename, remove, members, addMember, removeMember])
)
