import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const FeatureFlagsHandlers = HttpApiBuilder.group(HedgerowApi, "featureFlags", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.featureFlags.list))
    .handleRaw("create", bind(operations.featureFlags.create))
    .handleRaw("projectActivity", bind(operations.featureFlags.projectActivity))
    .handleRaw("retrieve", bind(operations.featureFlags.retrieve))
    .handleRaw("update", bind(operations.featureFlags.update))
    .handleRaw("destroy", bind(operations.featureFlags.destroy))
    .handleRaw("status", bind(operations.featureFlags.status))
    .handleRaw("activity", bind(operations.featureFlags.activity))
    .handleRaw("accessControls", bind(operations.featureFlags.accessControls))
    .handleRaw("globalAccessControls", bind(operations.featureFlags.globalAccessControls))
    .handleRaw("createStaticCohort", bind(operations.featureFlags.createStaticCohort))
    .handleRaw("dashboard", bind(operations.featureFlags.dashboard))
    .handleRaw("enrichUsageDashboard", bind(operations.featureFlags.enrichUsageDashboard))))

export const FlagRoleAccessHandlers = HttpApiBuilder.group(HedgerowApi, "flagRoleAccess", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.flagRoleAccess.list))
    .handleRaw("create", bind(operations.flagRoleAccess.create))
    .handleRaw("retrieve", bind(operations.flagRoleAccess.retrieve))
    .handleRaw("destroy", bind(operations.flagRoleAccess.destroy))))
