import { Layer } from "effect"
import { ActivityWriter } from "../activity/writer.ts"
import { FlagAccessControls } from "./access-controls.ts"
import { FeatureFlagActions } from "./actions.ts"
import { FlagReader } from "./lookup.ts"
import { FlagRoleAccessService } from "./role-access.ts"
import { FlagRules } from "./rules.ts"
import { FeatureFlagService } from "./service.ts"
import { FlagWriter } from "./writer.ts"

/**
 * The flag services, over what they share (lookups, rules, the writer, the activity log). Those stay
 * inside: provided, not merged, so the layer's type names only what `@hedgerow/core` exports.
 */
export const layerNoDeps = Layer.mergeAll(
  FeatureFlagService.layerNoDeps,
  FlagRoleAccessService.layerNoDeps,
  FeatureFlagActions.layerNoDeps,
  FlagAccessControls.layerNoDeps
).pipe(
  Layer.provide(FlagWriter.layerNoDeps),
  Layer.provide(Layer.mergeAll(FlagReader.layerNoDeps, FlagRules.layerNoDeps, ActivityWriter.layerNoDeps))
)
