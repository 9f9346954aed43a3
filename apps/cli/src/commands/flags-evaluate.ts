import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag, UsageError } from "../output.ts"
import { remoteFlags, withApi } from "../remote.ts"
import { keyValuePairs } from "../request-body.ts"
import { projectFlag } from "./flags-shared.ts"

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
export const evaluate = Command.make(
  "evaluate",
  {
    ...remoteFlags,
    flagKey: Argument.String("flag-key").pipe(Argument.withDescription("The key of the flag to evaluate")),
    project: projectFlag,
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
    ),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const person_properties = yield* keyValuePairs(options.prop, "--prop")
        const groups = yield* keyValuePairs(options.group, "--group")
        const project = yield* client.projects.retrieve({ params: { project_id: options.project } })
        const answer = yield* client.flagEvaluation.flags({
          query: { v: "2" },
          headers: {},
          payload: {
            token: project.api_token,
            distinct_id: options.distinctId,
            person_properties,
            groups,
            flag_keys_to_evaluate: [options.flagKey],
            evaluation_runtime: options.runtime
          }
        })
        // `v=2` always answers the v2 shape (the contract's others are for other versions); an own key
        // only, so a flag key such as `constructor` is not read off the prototype.
        const entry: FlagEntry | undefined = "flags" in answer && Object.hasOwn(answer.flags, options.flagKey)
          ? answer.flags[options.flagKey]
          : undefined
        if (entry === undefined) {
          const errors = "errorsWhileComputingFlags" in answer && answer.errorsWhileComputingFlags
          const runtime = options.runtime === "all" ? "" : ` for the ${options.runtime} runtime`
          return yield* new UsageError({
            message: errors
              ? `flag ${options.flagKey} could not be evaluated (the server reported errors while computing flags)`
              : `project ${project.id} has no active flag with key ${options.flagKey}${runtime}`
          })
        }
        yield* emit(options.json, summary)(entry)
      }))
).pipe(Command.withDescription(
  "Evaluate one flag for a person remotely, as POST /flags?v=2 does (--prop values are sent as text)"
))
