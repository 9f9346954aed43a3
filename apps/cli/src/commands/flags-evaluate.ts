import * as Effect from "effect/Effect"
import { Argument, Flag } from "effect/cli"
import { details, emit, UsageError } from "../output.ts"
import { keyValuePairs } from "../request-body.ts"
import { flag } from "./flags-resource.ts"

/** One flag of a `/flags?v=2` answer, as the server sends it. */
interface FlagEntry {
  readonly key: string
  readonly enabled: boolean
  readonly variant: string | null
  readonly reason: { readonly code: string; readonly condition_index: number | null; readonly description: string }
  readonly metadata: { readonly payload: unknown }
}

const summary = (entry: FlagEntry) =>
  details({
    key: entry.key,
    enabled: entry.enabled,
    variant: entry.variant,
    reason: `${entry.reason.code} (${entry.reason.description})`,
    condition_index: entry.reason.condition_index,
    payload: entry.metadata.payload
  })

/**
 * `POST /flags/?v=2` for one flag, as an SDK without a personal key asks it: the project's public token
 * (read with the personal key) in the body, the person's properties and groups as given. Property
 * values are sent as text: the evaluator reads numbers, dates, versions and true/false out of text for
 * the operators that compare them, so `--prop age=30` matches `age > 18` as `{"age": 30}` would.
 */
export const evaluate = flag.onAll("evaluate", {
  description: "Evaluate one flag for a person remotely, as POST /flags?v=2 does (--prop values are sent as text)",
  input: { flagKey: Argument.String("flag-key").pipe(Argument.withDescription("The key of the flag to evaluate")) },
  flags: {
    distinctId: Flag.String("distinct-id").pipe(Flag.withDescription("The person to evaluate the flag for")),
    prop: Flag.String("prop").pipe(
      Flag.withDescription("A person property, key=value (repeatable); the value is sent as text"),
      Flag.atLeast(0)
    ),
    group: Flag.String("group").pipe(
      Flag.withDescription("A group the person is in, type=key by its group type's name, e.g. company=acme (repeatable; see hedgerow group-types list)"),
      Flag.atLeast(0)
    ),
    runtime: Flag.Literals("runtime", ["all", "server", "client"]).pipe(
      Flag.withDescription("Ask as an SDK of this runtime would: a flag restricted to the other runtime is not evaluated"),
      Flag.withDefault("all")
    )
  },
  run: ({ client, at, values, json }) =>
    Effect.gen(function*() {
      const person_properties = yield* keyValuePairs(values.prop, "--prop")
      const groups = yield* keyValuePairs(values.group, "--group")
      const project = yield* client.projects.retrieve({ params: at })
      const answer = yield* client.flagEvaluation.flags({
        query: { v: "2" },
        headers: {},
        payload: {
          token: project.api_token,
          distinct_id: values.distinctId,
          person_properties,
          groups,
          flag_keys_to_evaluate: [values.flagKey],
          evaluation_runtime: values.runtime
        }
      })
      // `v=2` always answers the v2 shape (the contract's others are for other versions); an own key
      // only, so a flag key such as `constructor` is not read off the prototype.
      const entry: FlagEntry | undefined = "flags" in answer && Object.hasOwn(answer.flags, values.flagKey)
        ? answer.flags[values.flagKey]
        : undefined
      if (entry === undefined) {
        const errors = "errorsWhileComputingFlags" in answer && answer.errorsWhileComputingFlags
        const runtime = values.runtime === "all" ? "" : ` for the ${values.runtime} runtime`
        return yield* new UsageError({
          message: errors
            ? `flag ${values.flagKey} could not be evaluated (the server reported errors while computing flags)`
            : `project ${project.id} has no active flag with key ${values.flagKey}${runtime}`
        })
      }
      yield* emit(json, summary)(entry)
    })
})
