import { Command, Flag } from "effect/cli"
import { details } from "../output.ts"
import { adminCommand } from "./command.ts"

const add = adminCommand("add", {
  description: "Add a user to an organization at a level",
  flags: {
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    email: Flag.String("email").pipe(Flag.withDescription("An existing user's e-mail")),
    level: Flag.Int("level").pipe(Flag.withDescription("1 member, 8 administrator, 15 owner"))
  },
  run: ({ MemberService, systemActor }, { org, email, level }) => MemberService.use((s) => s.add(systemActor, org, { email, level })),
  show: (membership) => details(membership)
})

export const members = Command.make("members").pipe(
  Command.withDescription("Organization memberships"),
  Command.withSubcommands([add])
)
