import { INSECURE_FAST_SCRYPT, OWASP_SCRYPT, PasswordHashing } from "@hedgerow/core"
import { Config, Effect, Layer } from "effect"

/**
 * HEDGEROW_INSECURE_FAST_PASSWORD_HASHING=true hashes new passwords with about a hundredth of the work,
 * for test suites that log in thousands of times; never for people's passwords. Off by default. Read by
 * every process that runs core on a store: servers, the CLI's admin commands, embedding apps.
 */
export const insecureFastPasswordHashing = Config.Boolean("HEDGEROW_INSECURE_FAST_PASSWORD_HASHING").pipe(Config.withDefault(false))

export const PasswordHashingFromConfig = Layer.effect(
  PasswordHashing,
  Effect.gen(function*() {
    return (yield* insecureFastPasswordHashing) ? INSECURE_FAST_SCRYPT : OWASP_SCRYPT
  })
)
