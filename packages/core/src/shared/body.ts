import { Effect, type Schema } from "effect"
import type { ParseError, PayloadTooLarge, UnsupportedMediaType, ValidationError } from "./errors.ts"
import { decodeInput } from "./validation.ts"

export type BodyError = ParseError | PayloadTooLarge | UnsupportedMediaType

/**
 * A request body that is read only when a rule needs it. PostHog reads the body after authentication,
 * permissions and the object lookup, so a malformed body sent to a forbidden or foreign object answers
 * 403 or 404; services take the body in this form to keep that order.
 */
export type Body = Effect.Effect<unknown, BodyError>

/** A body already in hand (embedding apps, the CLI, tests). */
export const bodyOf = (value: unknown): Body => Effect.succeed(value)

export const decodeBody = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const decode = decodeInput(schema)
  return (body: Body): Effect.Effect<S["Type"], ValidationError | BodyError> => Effect.flatMap(body, decode)
}
