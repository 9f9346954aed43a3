import { Command, Flag } from "effect/cli"
import { details } from "../output.ts"
import { adminCommand } from "./command.ts"

const create = adminCommand("create", {
  description: "Create an organization",
  flags: { name: Flag.String("name").pipe(Flag.withDescription("Organization name")) },
  run: ({ OrganizationService, systemActor }, { name }) => OrganizationService.use((s) => s.create(systemActor, { name })),
  show: (org) => details(org)
})

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Organizations"),
  Command.withSubcommands([create])
)
