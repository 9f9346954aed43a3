import type { User } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { given } from "../request-body.ts"

const create = Command.make(
  "create",
  {
    ...localFlags,
    email: Flag.String("email").pipe(Flag.withDescription("E-mail, unique per store")),
    firstName: Flag.String("first-name").pipe(Flag.withDescription("Given name"), Flag.optional),
    lastName: Flag.String("last-name").pipe(Flag.withDescription("Family name"), Flag.optional),
    json: jsonFlag
  },
  ({ email, firstName, lastName, json, ...store }) =>
    inProcess(store, ({ systemActor, UserService }) =>
      UserService.use((s) => s.create(systemActor, { email, ...given({ first_name: firstName, last_name: lastName }) }))).pipe(
      Effect.flatMap(emit(json, (user: User) => details(user, ["id", "uuid", "email", "first_name", "last_name", "created_at"])))
    )
).pipe(Command.withDescription("Create a user (then `members add` puts them in an organization)"))

export const users = Command.make("users").pipe(
  Command.withDescription("Users"),
  Command.withSubcommands([create])
)
