import {
  FlagEvaluationService,
  type FlagsResponse,
  flagsFormat,
  flagsResponseJson,
  type PayloadTooLarge,
  type RuntimeHints,
  type ValidationError
} from "@hedgerow/core"
import { Effect } from "effect"
import { answer, bindPublicGroup } from "./endpoint.ts"

/**
 * The body's project token decides the project; the answer, in the shape `v` asks for, is made into
 * JSON here once (every field is plain JSON already).
 */
const evaluate = (path: "flags" | "decide") =>
(call: {
  readonly query: { readonly v?: string }
  readonly headers: RuntimeHints
  readonly payload: Effect.Effect<unknown, ValidationError | PayloadTooLarge>
}) =>
  Effect.flatMap(call.payload, (body) => FlagEvaluationService.use((s) => s.flags(body, call.headers))).pipe(
    Effect.map((evaluated) => answer<FlagsResponse>(200, {}, flagsResponseJson(evaluated, flagsFormat(path, call.query.v))))
  )

export const flagEvaluation = bindPublicGroup("flagEvaluation", {
  flags: evaluate("flags"),
  decide: evaluate("decide")
})
