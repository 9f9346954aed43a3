import { Layer } from "effect"
import { EventCaptureService } from "../events/service.ts"
import { FlagEvaluationService } from "../flag-evaluation/service.ts"
import { FlagAccessControlsService } from "./access/access-controls.ts"
import { FlagCallerRights } from "./access/caller-rights.ts"
import { FlagCopyService } from "./copy/service.ts"
import { FlagRoleAccessService } from "./access/role-access.ts"
import { LiveFlags } from "./live/live-flags.ts"
import { FlagLookup } from "./lookup.ts"
import { FlagActions } from "./management/actions.ts"
import { FlagRules } from "./management/rules.ts"
import { FlagService } from "./management/service.ts"
import { FlagWriter } from "./management/writer.ts"
import { FlagRenderer } from "./renderer.ts"
import { FlagCalls } from "./usage/calls.ts"
import { FlagCallsService } from "./usage/calls-service.ts"
import { FlagUsage } from "./usage/last-called.ts"
import { FlagMeter } from "./usage/meter.ts"

/**
 * The flag services and flag evaluation, over what they share (the lookup, the caller's rights, the
 * answers, the live flags, the rules, the writer). Those stay inside: provided, not merged, so the
 * layer's type names only what `@hedgerow/core` exports.
 */
export const layerNoDeps = Layer.mergeAll(
  FlagService.layerNoDeps,
  FlagRoleAccessService.layerNoDeps,
  FlagActions.layerNoDeps,
  FlagAccessControlsService.layerNoDeps,
  FlagCallsService.layerNoDeps,
  FlagCopyService.layerNoDeps,
  // Evaluation reads the same live flags as the list, so a project is held in memory once; the events
  // read the flags they name from it.
  EventCaptureService.layerNoDeps.pipe(Layer.provideMerge(FlagEvaluationService.layerNoDeps))
).pipe(
  Layer.provide(FlagWriter.layerNoDeps),
  Layer.provide(Layer.mergeAll(
    FlagLookup.layerNoDeps,
    FlagCallerRights.layerNoDeps,
    FlagRenderer.layerNoDeps,
    FlagRules.layerNoDeps,
    LiveFlags.layerNoDeps
  )),
  // One record of evaluations: evaluation and events mark flags, and every flag answer shows the marks.
  Layer.provide(Layer.mergeAll(FlagUsage.layerNoDeps, FlagCalls.layerNoDeps)),
  // The counters a monitoring system reads, beside the services that count.
  Layer.provideMerge(FlagMeter.layer)
)
