import { type Organization, OrganizationService, systemActor } from "@hedgerow/core"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"

const create = Command.make(
  "create",
  { ...localFlags, name: Flag.String("name").pipe(Flag.withDescription("Organization name")), json: jsonFlag },
  ({ name, json, ...store }) =>
    OrganizationService.use((s) => s.create(systemActor, { name })).pipe(
      inProcess(store),
      Effect.flatMap(emit(json, (org: Organization) => details(org)))
    )
).pipe(Command.withDescription("Create an organization"))

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Organizations"),
  Command.withSubcommands([create])
)
