import type { EvaluationContext } from "../evaluation/context.ts"
import { evaluateFlags } from "../evaluation/evaluate.ts"
import type { FlagResult, FlagValue } from "../evaluation/model.ts"
import { runsIn } from "./runtime.ts"
import type { FlagSnapshot } from "./snapshot.ts"

/** A flag as a server SDK reads it: its value, and the payload for that value. */
export interface ServerFlag {
  readonly value: FlagValue
  /** Stored JSON text parsed (text that is not JSON as it is); null for an off flag or a value with none. */
  readonly payload: unknown
}

/**
 * posthog-node's reading of a stored payload: a falsy one is none (null), text is parsed as JSON when it
 * is JSON, anything else is taken as it is.
 */
export const sdkPayload = (stored: unknown): unknown => {
  if (!stored) return null
  if (typeof stored !== "string") return stored
  try {
    return JSON.parse(stored)
  } catch {
    return stored
  }
}

const serverFlagOf = (result: FlagResult): ServerFlag => ({
  value: result.variant ?? result.enabled,
  payload: sdkPayload(result.payload)
})

/**
 * A project's flags for one person, as a server evaluating them in-process reads them: the flags that
 * run on a server (`server` or `all`, as `/flags` answers posthog-node), each valued as posthog-node
 * values a flag it evaluates locally. An inactive flag is off; a flag the service would not evaluate (in
 * or behind a dependency cycle) is absent, as is every flag not in `context.only` when that is given.
 */
export const serverFlags = (snapshot: FlagSnapshot, context: EvaluationContext): ReadonlyMap<string, ServerFlag> => {
  const { prepared } = snapshot
  const evaluation = evaluateFlags(prepared, context)
  const flags = new Map<string, ServerFlag>()
  evaluation.results.forEach((result, i) => {
    if (result !== null && runsIn(prepared.flags[i]!.flag.evaluation_runtime, "server")) flags.set(result.key, serverFlagOf(result))
  })
  return flags
}
