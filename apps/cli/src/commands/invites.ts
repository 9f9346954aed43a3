import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { emit, jsonFlag } from "../output.ts"
import { checkPayload, remoteFlags, withPublicApi } from "../remote.ts"
import { dataFlag, extraData, given } from "../request-body.ts"
import { askText, readSecret } from "../secret-input.ts"
import { bulk } from "./invites-bulk.ts"
import { invite, noEmailFlag } from "./invites-resource.ts"

const list = invite.list({
  description: "List an organization's invites, newest first (expired ones too)",
  columns: ["id", "target_email", "level", "is_expired", "emailing_attempt_made", "created_at"],
  fetch: ({ client, at }, query) => client.invites.list({ params: at, query })
})

const create = invite.create({
  description: "Invite someone to an organization; earlier invites for the address are replaced",
  input: { email: Flag.String("email").pipe(Flag.withDescription("The invitee's e-mail address")) },
  flags: {
    firstName: Flag.String("first-name").pipe(Flag.withDescription("The invitee's first name (at most 30 characters)"), Flag.optional),
    level: Flag.String("level").pipe(Flag.withDescription("1 member (default), 8 administrator, 15 owner; not above your own"), Flag.optional),
    message: Flag.String("message").pipe(Flag.withDescription("A note for the invitee"), Flag.optional),
    noEmail: noEmailFlag,
    combine: Flag.Boolean("combine").pipe(
      Flag.withDescription("Merge the address's pending invites into this one (highest level, all project access)"),
      Flag.withDefault(false)
    ),
    data: dataFlag(" (e.g. private_project_access)")
  },
  body: (values) =>
    Effect.map(extraData(values.data), (extra) => ({
      ...extra,
      target_email: values.email,
      ...given({ first_name: values.firstName, level: values.level, message: values.message }),
      ...(values.noEmail ? { send_email: false } : {}),
      ...(values.combine ? { combine_pending_invites: true } : {})
    })),
  schema: (core) => core.InviteCreate,
  send: ({ client, at }, payload) => client.invites.create({ params: at, payload })
})

const remove = invite.delete({
  description: "Withdraw an invite",
  send: ({ client, at, id }) => client.invites.destroy({ params: { ...at, id } })
})

const acceptInvite = Command.make(
  "accept",
  {
    url: remoteFlags.url,
    id: Argument.String("invite-id").pipe(Argument.withDescription("The invite id its e-mail gives")),
    firstName: Flag.String("first-name").pipe(
      Flag.withDescription("Your first name (default: the invite's, else asked on a terminal)"),
      Flag.optional
    ),
    json: jsonFlag
  },
  (options) =>
    withPublicApi(options.url, (client) =>
      Effect.gen(function*() {
        const params = { invite_id: options.id }
        const invitation = yield* client.signup.prevalidate({ params })
        if (!options.json) yield* Console.error(`Invite to ${invitation.organization_name} for ${invitation.target_email}.`)
        const firstName = Option.isSome(options.firstName)
          ? options.firstName.value
          : invitation.first_name !== ""
          ? invitation.first_name
          : yield* askText("First name", "--first-name")
        const password = yield* readSecret("Password", { confirm: true })
        const payload = yield* checkPayload((core) => core.InviteAccept, { first_name: firstName, password })
        const user = yield* client.signup.accept({ params, payload })
        yield* emit(options.json, (joined: typeof user) =>
          `${joined.email} is now a member of ${invitation.organization_name}; log in with this e-mail and password.`)(user)
      }))
).pipe(Command.withDescription(
  "Accept an invite as a new user: your first name, and a password read from stdin (first line) or asked without echo; no key needed"
))

export const invites = Command.make("invites").pipe(
  Command.withDescription("Organization invites, through the API (--url, --key)"),
  Command.withSubcommands([list, create, remove, bulk, acceptInvite])
)
