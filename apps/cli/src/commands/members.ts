import type { Member } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { ME } from "../defaults.ts"
import { details, emit } from "../output.ts"
import { given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

const ROLE: Record<number, string> = { 1: "member", 8: "administrator", 15: "owner" }

/** A member flattened for tables: the interesting fields live on the nested user. */
const row = (member: Member) => ({
  uuid: member.user.uuid,
  email: member.user.email,
  name: `${member.user.first_name} ${member.user.last_name}`.trim(),
  level: member.level,
  role: ROLE[member.level],
  joined_at: member.joined_at
})

/** Members are named by their user's uuid. */
const member = resource({
  noun: "member",
  scope: inOrganization,
  id: Argument.String("user").pipe(Argument.withDescription(`The member's user uuid, or ${ME} for yourself`)),
  show: (found: Member) => details(row(found))
})

const list = member.list({
  description: "List an organization's members, newest first",
  flags: {
    email: Flag.String("email").pipe(Flag.withDescription("Only the member with this e-mail address (any letter case)"), Flag.optional),
    order: Flag.String("order").pipe(Flag.withDescription("joined_at (oldest first) or -joined_at (newest first, the default)"), Flag.optional)
  },
  columns: ["uuid", "email", "name", "level", "role", "joined_at"],
  row,
  fetch: ({ client, at, values }, query) =>
    client.members.list({ params: at, query: { ...query, ...given({ email: values.email, order: values.order }) } })
})

const setLevel = member.update("set-level", {
  description: "Change another member's level",
  input: { level: Flag.String("level").pipe(Flag.withDescription("1 member, 8 administrator, 15 owner")) },
  body: (values) => Effect.succeed({ level: values.level }),
  schema: (core) => core.MemberUpdate,
  send: ({ client, at, id }, payload) => client.members.update({ params: { ...at, user__uuid: id }, payload })
})

const remove = member.onItem("remove", {
  description: `Remove a member from an organization, or leave it with ${ME}`,
  run: ({ client, at, id, json }) =>
    client.members.destroy({ params: { ...at, user__uuid: id } }).pipe(
      Effect.andThen(emit(json, () => id === ME ? "You left the organization." : `Removed member ${id}.`)({ user: id, removed: true }))
    )
})

export const members = Command.make("members").pipe(
  Command.withDescription("Organization members, through the API (--url, --key)"),
  Command.withSubcommands([list, setLevel, remove])
)
