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
export const FeatureFlagServices = Layer.mergeAll(
  FeatureFlagService.layer,
  FlagRoleAccessService.layer,
  FeatureFlagActions.layer,
  FlagAccessControls.layer
).pipe(
  Layer.provideMerge(FlagWriter.layer),
  Layer.provideMerge(Layer.mergeAll(FlagReader.layer, FlagRules.layer, ActivityWriter.layer))
)
