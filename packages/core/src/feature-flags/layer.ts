import { Layer } from "effect"
import { FlagEvaluationService } from "../flag-evaluation/service.ts"
import { FlagAccessControls } from "./access-controls.ts"
import { FeatureFlagActions } from "./actions.ts"
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
  // Evaluation reads the same live flags as the list, so a project is held in memory once.
  FlagEvaluationService.layerNoDeps
).pipe(
  Layer.provide(FlagWriter.layerNoDeps),
  Layer.provide(Layer.mergeAll(FlagReader.layerNoDeps, FlagRules.layerNoDeps, LiveFlags.layerNoDeps)),
  // One record of evaluations: evaluation marks flags, and every flag answer shows the marks.
  Layer.provide(FlagUsage.layerNoDeps)
)
