import { Layer } from "effect"
import { ActivityWriter } from "../activity/writer.ts"
import { FlagAccessControls } from "./access-controls.ts"
import { FeatureFlagActions } from "./actions.ts"
import { FlagReader } from "./lookup.ts"
import { FlagRoleAccessService } from "./role-access.ts"
import { FlagRules } from "./rules.ts"
import { FeatureFlagService } from "./service.ts"
import { FlagWriter } from "./writer.ts"

/** The flag services and what they share (lookups, rules, the writer, the activity log). */
export const layerNoDeps = Layer.mergeAll(
  FeatureFlagService.layerNoDeps,
  FlagRoleAccessService.layerNoDeps,
  FeatureFlagActions.layerNoDeps,
  FlagAccessControls.layerNoDeps
).pipe(
  Layer.provideMerge(FlagWriter.layerNoDeps),
  Layer.provideMerge(Layer.mergeAll(FlagReader.layerNoDeps, FlagRules.layerNoDeps, ActivityWriter.layerNoDeps))
)
