import { FlagCallsService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const flagUsage = bindGroup("flagUsage", {
  usage: ({ actor, params, query }) => FlagCallsService.use((s) => s.usage(actor, params.project_id, params.id, query))
})
