import { Clock, Context, Effect, Layer } from "effect"
import type { Actor } from "../../auth/actor.ts"
import { type NotFound, type PermissionDenied, ValidationError } from "../../shared/errors.ts"
import { type FlagUsageQuery, type FlagUsageReport, usageRange, usageReport } from "./calls-report.ts"
import { FlagCalls } from "./calls.ts"
import { FlagLookup } from "../lookup.ts"

/** A flag's calls as the SDKs reported them (`$feature_flag_called`), read over the API. */
export class FlagCallsService extends Context.Service<FlagCallsService, {
  /**
   * `GET {id}/usage/`: the flag's calls per UTC day and value returned (scope feature_flag:read); a
   * deleted flag still answers by id, as every flag read does.
   */
  readonly usage: (
    actor: Actor,
    project: string,
    id: string,
    query: FlagUsageQuery
  ) => Effect.Effect<FlagUsageReport, PermissionDenied | NotFound | ValidationError>
}>()("hedgerow/FlagCallsService") {
  static readonly layerNoDeps = Layer.effect(
    FlagCallsService,
    Effect.gen(function*() {
      const lookup = yield* FlagLookup
      const calls = yield* FlagCalls

      const usage = Effect.fn("FlagCallsService.usage")(function*(actor: Actor, project: string, id: string, query: FlagUsageQuery) {
        const { flag } = yield* lookup.flag(actor, project, id, "feature_flag:read")
        const range = usageRange(query, yield* Clock.currentTimeMillis)
        if (range instanceof ValidationError) return yield* range
        return usageReport(flag, range, yield* calls.read(flag.id, range.from, range.to))
      })

      return FlagCallsService.of({ usage })
    })
  )
}
