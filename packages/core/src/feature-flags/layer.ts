import { Layer } from "effect"
import { EventCaptureService } from "../events/service.ts"
import { FlagEvaluationService } from "../flag-evaluation/service.ts"
import { FlagAccessControls } from "./access-controls.ts"
import { FeatureFlagActions } from "./actions.ts"
import { FlagCalls } from "./calls.ts"
import { FlagCallsService } from "./calls-service.ts"
import { LiveFlags } from "./live-flags.ts"
import { FlagReader } from "./lookup.ts"
import { FlagRoleAccessService } from "./role-access.ts"
import { FlagRules } from "./rules.ts"
import { FlagUsage } from "./usage.ts"
import { FeatureFlagService } from "./service.ts"
import { FlagWriter } from "./writer.ts"

/**
 * The flag services and flag evaluation, over what they share (lookups, the live flags, rules, the
 * writer). Those stay inside: provided, not merged, so the layer's type names only what `@hedgerow/core`
 * exports.
 */
export const layerNoDeps = Layer.mergeAll(
  FeatureFlagService.layerNoDeps,
  FlagRoleAccessService.layerNoDeps,
  FeatureFlagActions.layerNoDeps,
  FlagAccessControls.layerNoDeps,
  FlagCallsService.layerNoDeps,
  // Evaluation reads the same live flags as the list, so a project is held in memory once; the events
  // read the flags they name from it.
  EventCaptureService.layerNoDeps.pipe(Layer.provideMerge(FlagEvaluationService.layerNoDeps))
).pipe(
  Layer.provide(FlagWriter.layerNoDeps),
  Layer.provide(Layer.mergeAll(FlagReader.layerNoDeps, FlagRules.layerNoDeps, LiveFlags.layerNoDeps)),
  // One record of evaluations: evaluation and events mark flags, and every flag answer shows the marks.
  Layer.provide(Layer.mergeAll(FlagUsage.layerNoDeps, FlagCalls.layerNoDeps))
)
