import { FlagCopyService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const flagCopy = bindGroup("flagCopy", {
  copyFlags: ({ actor, params, body }) => FlagCopyService.use((s) => s.copy(actor, params.organization_id, body))
})
