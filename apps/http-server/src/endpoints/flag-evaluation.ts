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
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

/**
 * The answer to an evaluation request whose body is read: the body's project token decides the project;
 * the answer, in the shape `v` asks for, is made into JSON here once (every field is plain JSON already).
 * HttpApi and the SDK lane (sdk-lane/) both answer with it.
 */
export const flagsAnswer = (path: "flags" | "decide", v: string | undefined, body: unknown, hints: RuntimeHints) =>
  FlagEvaluationService.use((s) => s.flags(body, hints)).pipe(
    Effect.map((evaluated) => answer<FlagsResponse>(200, {}, flagsResponseJson(evaluated, flagsFormat(path, v))))
  )

const evaluate = (path: "flags" | "decide") =>
(call: {
  readonly query: { readonly v?: string }
  readonly headers: RuntimeHints
  readonly payload: Effect.Effect<unknown, ValidationError | PayloadTooLarge>
}) => Effect.flatMap(call.payload, (body) => flagsAnswer(path, call.query.v, body, call.headers))

export const flagEvaluation = bindGroup("flagEvaluation", {
  flags: evaluate("flags"),
  decide: evaluate("decide")
})
