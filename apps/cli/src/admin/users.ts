import type { User } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { given } from "../request-body.ts"
import { readSecret } from "../secret-input.ts"

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

const setPassword = Command.make(
  "set-password",
  {
    ...localFlags,
    email: Flag.String("email").pipe(Flag.withDescription("The user's e-mail")),
    json: jsonFlag
  },
  ({ email, json, ...store }) =>
    readSecret("New password", { confirm: true }).pipe(
      Effect.flatMap((password) =>
        inProcess(store, ({ systemActor, UserService }) => UserService.use((s) => s.setPassword(systemActor, { email, password })))
      ),
      Effect.flatMap(emit(json, (user: User) => `Set the password of ${user.email}; their sessions have ended. They can log in with it now.`))
    )
).pipe(Command.withDescription(
  "Set a user's password, read from stdin (first line) or asked without echo; it ends the user's sessions"
))

export const users = Command.make("users").pipe(
  Command.withDescription("Users"),
  Command.withSubcommands([create, setPassword])
)
