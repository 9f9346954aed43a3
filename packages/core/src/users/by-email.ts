import { Effect, Option } from "effect"
import { ValidationError } from "../shared/errors.ts"
import type { User } from "./model.ts"
import { UserRepository } from "./repository.ts"

/** The existing user an operator names by e-mail, or a 400 on the `email` field. */
export const userByEmail = (email: string): Effect.Effect<User, ValidationError, UserRepository> =>
  UserRepository.use((users) => users.findByEmail(email)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(ValidationError.field("email", `No user with e-mail ${email}.`, "does_not_exist")),
      onSome: Effect.succeed
    }))
  )
