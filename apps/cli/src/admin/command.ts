import * as Effect from "effect/Effect"
import { Command } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { emit, jsonFlag } from "../output.ts"
import type { Core } from "../packages.ts"

type Config = Command.Command.Config

/**
 * An operator command: the store's flags, then the command's own, then `--json`. It runs core on the
 * store in this process and prints what `run` answers, as text or JSON.
 */
export const adminCommand = <F extends Config, A, E, R>(name: string, spec: {
  readonly description: string
  readonly flags: F
  readonly run: (core: Core, values: Command.Command.Config.InferValue<F>) => Effect.Effect<A, E, R>
  readonly show: (done: A) => string
}) =>
  Command.make(
    name,
    { ...localFlags, own: spec.flags, json: jsonFlag },
    (options) => inProcess(options, (core) => spec.run(core, options.own)).pipe(Effect.flatMap(emit(options.json, spec.show)))
  ).pipe(Command.withDescription(spec.description))
