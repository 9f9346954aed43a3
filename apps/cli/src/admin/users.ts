import type { PasswordSet } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { given } from "../request-body.ts"
import { readSecret } from "../secret-input.ts"
import { adminCommand } from "./command.ts"
import { signInLink } from "./sign-in-link.ts"

const create = adminCommand("create", {
  description: "Create a user (then `members add` puts them in an organization)",
  flags: {
    email: Flag.String("email").pipe(Flag.withDescription("E-mail, unique per store")),
    firstName: Flag.String("first-name").pipe(Flag.withDescription("Given name"), Flag.optional),
    lastName: Flag.String("last-name").pipe(Flag.withDescription("Family name"), Flag.optional)
  },
  run: ({ systemActor, UserService }, { email, firstName, lastName }) =>
    UserService.use((s) => s.create(systemActor, { email, ...given({ first_name: firstName, last_name: lastName }) })),
  show: (user) => details(user, ["id", "uuid", "email", "first_name", "last_name", "created_at"])
})

// The password is asked before the store is opened, so the store is held only while it is written.
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
      Effect.flatMap(emit(json, (set: PasswordSet) =>
        set.sso_enforcement === null
          ? `Set the password of ${set.email}; their sessions have ended. They can log in with it now.`
          : `Set the password of ${set.email}; their sessions have ended. Their e-mail's domain enforces SSO (${set.sso_enforcement}), so log-in with the password stays refused until that domain's SSO enforcement is switched off.`))
    )
).pipe(Command.withDescription(
  "Set a user's password, read from stdin (first line) or asked without echo; it ends the user's sessions. Where the user's domain enforces SSO it is set all the same, for when that is switched off"
))

export const users = Command.make("users").pipe(
  Command.withDescription("Users"),
  Command.withSubcommands([create, setPassword, signInLink])
)
