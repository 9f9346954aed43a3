import type { Membership } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"

const add = Command.make(
  "add",
  {
    ...localFlags,
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    email: Flag.String("email").pipe(Flag.withDescription("An existing user's e-mail")),
    level: Flag.Int("level").pipe(Flag.withDescription("1 member, 8 administrator, 15 owner")),
    json: jsonFlag
  },
  ({ org, email, level, json, ...store }) =>
    inProcess(store, ({ MemberService, systemActor }) => MemberService.use((s) => s.add(systemActor, org, { email, level }))).pipe(
      Effect.flatMap(emit(json, (membership: Membership) => details(membership)))
    )
).pipe(Command.withDescription("Add a user to an organization at a level"))

export const members = Command.make("members").pipe(
  Command.withDescription("Organization memberships"),
  Command.withSubcommands([add])
)
