import { FlagRoleAccessService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const flagRoleAccess = bindGroup("flagRoleAccess", {
  list: ({ actor, params, query, url }) =>
    FlagRoleAccessService.use((s) => s.list(actor, params.project_id, params.feature_flag_id, query)).pipe(
      Effect.map((page) => toEnvelope(page, url))
    ),
  create: ({ actor, params, body }) =>
    FlagRoleAccessService.use((s) => s.create(actor, params.project_id, params.feature_flag_id, body)),
  retrieve: ({ actor, params }) =>
    FlagRoleAccessService.use((s) => s.retrieve(actor, params.project_id, params.feature_flag_id, params.id)),
  destroy: ({ actor, params }) =>
    FlagRoleAccessService.use((s) => s.destroy(actor, params.project_id, params.feature_flag_id, params.id))
})
