import type { OrganizationView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details, emit, jsonFlag, UsageError } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { checkPayload, remoteFlags, withApi } from "../remote.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription(`Organization id, or ${CURRENT} for your current one`))
const nameArgument = Argument.String("name").pipe(Argument.withDescription("Organization name (at most 64 characters)"))

const COLUMNS = ["id", "name", "slug", "membership_level", "created_at"]
const summary = (organization: OrganizationView) => details(organization, COLUMNS)

const list = Command.make(
  "list",
  { ...remoteFlags, ...pageFlags, json: jsonFlag },
  (options) => withApi(options, (client) => listCommand(options, COLUMNS, (query) => client.organizations.list({ query })))
).pipe(Command.withDescription("List your organizations, by name"))

const create = Command.make(
  "create",
  { ...remoteFlags, name: nameArgument, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.OrganizationCreate, { name: options.name })
        const organization = yield* client.organizations.create({ payload })
        yield* emit(options.json, (created: OrganizationView) =>
          `${summary(created)}\nYou own it, and work in its first project from now on.`)(organization)
      }))
).pipe(Command.withDescription("Found an organization: you become its owner, with a first project"))

const rename = Command.make(
  "rename",
  { ...remoteFlags, id: idArgument, name: nameArgument, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.OrganizationUpdate, { name: options.name })
        const organization = yield* client.organizations.update({ params: { organization_id: options.id }, payload })
        yield* emit(options.json, summary)(organization)
      }))
).pipe(Command.withDescription("Rename an organization (administrator level); its slug stays"))

const remove = Command.make(
  "delete",
  {
    ...remoteFlags,
    id: idArgument,
    yes: Flag.Boolean("yes").pipe(
      Flag.withDescription("Confirm: the organization goes with everything in it, and cannot be brought back"),
      Flag.withDefault(false)
    ),
    json: jsonFlag
  },
  (options) =>
    options.yes
      ? withApi(options, (client) =>
        client.organizations.destroy({ params: { organization_id: options.id } }).pipe(
          Effect.andThen(emit(options.json, () => `Deleted organization ${options.id} and everything in it.`)({ id: options.id, deleted: true }))
        ))
      : Effect.fail(new UsageError({
        message: `deleting organization ${options.id} deletes its projects, flags, members, roles and invites for good; pass --yes to confirm`
      }))
).pipe(Command.withDescription("Delete an organization and everything in it (owner level; needs --yes)"))

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Your organizations, through the API (--url, --key)"),
  Command.withSubcommands([list, create, rename, remove])
)
