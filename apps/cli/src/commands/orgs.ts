import type { OrganizationView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details, emit, jsonFlag, UsageError } from "../output.ts"
import { remoteFlags, withApi } from "../remote.ts"
import { resource } from "../resource.ts"
import { topLevel } from "../scope.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription(`Organization id, or ${CURRENT} for your current one`))
const nameArgument = Argument.String("name").pipe(Argument.withDescription("Organization name (at most 64 characters)"))

const COLUMNS = ["id", "name", "slug", "membership_level", "created_at"]

const organization = resource({
  noun: "organization",
  scope: topLevel,
  id: idArgument,
  show: (found: OrganizationView) => details(found, COLUMNS)
})

const list = organization.list({
  description: "List your organizations, by name",
  columns: COLUMNS,
  fetch: ({ client }, query) => client.organizations.list({ query })
})

const create = organization.create({
  description: "Found an organization: you become its owner, with a first project",
  input: { name: nameArgument },
  body: (values) => Effect.succeed({ name: values.name }),
  schema: (core) => core.OrganizationCreate,
  send: ({ client }, payload) => client.organizations.create({ payload }),
  show: (created) => `${details(created, COLUMNS)}\nYou own it, and work in its first project from now on.`
})

const rename = organization.update("rename", {
  description: "Rename an organization (administrator level); its slug stays",
  input: { name: nameArgument },
  body: (values) => Effect.succeed({ name: values.name }),
  schema: (core) => core.OrganizationUpdate,
  send: ({ client, id }, payload) => client.organizations.update({ params: { organization_id: id }, payload })
})

// Refused before the key is even looked up: without --yes nothing is asked of the server.
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
