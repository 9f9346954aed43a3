import { Clock, Context, Effect, Layer, Option } from "effect"
import { FlagCalls } from "../feature-flags/usage/calls.ts"
import { FlagUsage } from "../feature-flags/usage/last-called.ts"
import { FlagMeter } from "../feature-flags/usage/meter.ts"
import { FlagEvaluationService } from "../flag-evaluation/service.ts"
import type { FlagSnapshot } from "../flag-evaluation/snapshot.ts"
import { GroupTypeService } from "../group-types/service.ts"
import { type AuthenticationError, PermissionDenied, type ValidationError } from "../shared/errors.ts"
import type { FeatureFlagId } from "../shared/ids.ts"
import { utcDayOf } from "../shared/time.ts"
import { readCaptureBatch } from "./capture.ts"
import { flagCallOf, groupTypeOf } from "./flag-called.ts"

/** The events this service reads; every other event is accepted and dropped. */
const FLAG_CALLED = "$feature_flag_called"
const GROUP_IDENTIFY = "$groupidentify"

export interface CaptureOptions {
  /** The body came to `/engage/`, whose older person updates carry no event name. */
  readonly engage: boolean
}

/**
 * The events PostHog's SDKs send to the capture endpoints. Hedgerow keeps no events: it reads the two
 * that concern what it serves, and drops the rest once the request is known to be well formed.
 * `$feature_flag_called` counts a call of its flag, per UTC day of arrival and value returned, and marks
 * the flag as called, as `/flags` does. `$groupidentify` registers its group type, as PostHog registers
 * a type when it first sees one of its groups. The group-type service keeps the rules: at most five
 * types a project, and a name already known changes nothing.
 */
export class EventCaptureService extends Context.Service<EventCaptureService, {
  /**
   * A capture body, decoded: the events' token names the project (none is 401 `ingest_key_required`, one
   * naming no project 403 `ingest_key_unknown`); a body that is not events, or an event without a name
   * or a distinct id, is 400 and nothing of it is counted.
   */
  readonly capture: (
    body: unknown,
    options: CaptureOptions
  ) => Effect.Effect<void, ValidationError | AuthenticationError | PermissionDenied>
}>()("hedgerow/EventCaptureService") {
  static readonly layerNoDeps = Layer.effect(
    EventCaptureService,
    Effect.gen(function*() {
      const evaluation = yield* FlagEvaluationService
      const calls = yield* FlagCalls
      const usage = yield* FlagUsage
      const meter = yield* FlagMeter
      const groupTypes = yield* GroupTypeService

      const capture = Effect.fnUntraced(function*(body: unknown, options: CaptureOptions) {
        const batch = readCaptureBatch(body, options)
        if (!("events" in batch)) return yield* batch
        const project = yield* evaluation.projectByToken(batch.token)
        if (Option.isNone(project)) return yield* PermissionDenied.unknownIngestKey()
        const now = yield* Clock.currentTimeMillis
        const day = utcDayOf(now)
        let snapshot: FlagSnapshot | undefined
        const called: Array<FeatureFlagId> = []
        const named = new Set<string>()
        for (const { event, properties } of batch.events) {
          if (event === FLAG_CALLED) {
            snapshot ??= yield* evaluation.snapshot(project.value.id)
            const call = flagCallOf(properties, snapshot.prepared)
            if (call === undefined) continue
            calls.count(call.flag.flag.id, day, call.value)
            meter.called(project.value.id, call.flag.flag.id)
            called.push(call.flag.flag.id)
          } else if (event === GROUP_IDENTIFY) {
            const type = groupTypeOf(properties)
            if (type !== undefined) named.add(type)
          }
        }
        usage.record(now, called)
        for (const name of named) yield* groupTypes.register(project.value.id, name)
      })

      return EventCaptureService.of({ capture })
    })
  )
}
