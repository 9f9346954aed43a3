import type { Organization } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"

const create = Command.make(
  "create",
  { ...localFlags, name: Flag.String("name").pipe(Flag.withDescription("Organization name")), json: jsonFlag },
  ({ name, json, ...store }) =>
    inProcess(store, ({ OrganizationService, systemActor }) => OrganizationService.use((s) => s.create(systemActor, { name }))).pipe(
      Effect.flatMap(emit(json, (org: Organization) => details(org)))
    )
).pipe(Command.withDescription("Create an organization"))

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Organizations"),
  Command.withSubcommands([create])
)
