import type { Member } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { ME } from "../defaults.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { checkPayload, currentOrgFlag, remoteFlags, withApi } from "../remote.ts"

const userArgument = Argument.String("user").pipe(Argument.withDescription(`The member's user uuid, or ${ME} for yourself`))

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

const summary = (member: Member) => details(row(member))

const list = Command.make(
  "list",
  {
    ...remoteFlags,
    org: currentOrgFlag,
    email: Flag.String("email").pipe(Flag.withDescription("Only the member with this e-mail address (any letter case)"), Flag.optional),
    order: Flag.String("order").pipe(Flag.withDescription("joined_at (oldest first) or -joined_at (newest first, the default)"), Flag.optional),
    ...pageFlags,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["uuid", "email", "name", "level", "role", "joined_at"],
        (query) =>
          client.members.list({
            params: { organization_id: options.org },
            query: {
              ...query,
              ...(Option.isSome(options.email) ? { email: options.email.value } : {}),
              ...(Option.isSome(options.order) ? { order: options.order.value } : {})
            }
          }),
        row
      ))
).pipe(Command.withDescription("List an organization's members, newest first"))

const setLevel = Command.make(
  "set-level",
  {
    ...remoteFlags,
    user: userArgument,
    level: Flag.String("level").pipe(Flag.withDescription("1 member, 8 administrator, 15 owner")),
    org: currentOrgFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.MemberUpdate, { level: options.level })
        const member = yield* client.members.update({ params: { organization_id: options.org, user__uuid: options.user }, payload })
        yield* emit(options.json, summary)(member)
      }))
).pipe(Command.withDescription("Change another member's level"))

const remove = Command.make(
  "remove",
  { ...remoteFlags, user: userArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.members.destroy({ params: { organization_id: options.org, user__uuid: options.user } }).pipe(
        Effect.andThen(emit(options.json, () =>
          options.user === ME ? "You left the organization." : `Removed member ${options.user}.`)({ user: options.user, removed: true }))
      ))
).pipe(Command.withDescription(`Remove a member from an organization, or leave it with ${ME}`))

export const members = Command.make("members").pipe(
  Command.withDescription("Organization members, through the API (--url, --key)"),
  Command.withSubcommands([list, setLevel, remove])
)
