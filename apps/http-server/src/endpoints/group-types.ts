import { GroupTypeService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const groupTypes = bindGroup("groupTypes", {
  list: ({ actor, params }) => GroupTypeService.use((s) => s.list(actor, params.project_id)),
  create: ({ actor, params, body }) => GroupTypeService.use((s) => s.create(actor, params.project_id, body)),
  updateMetadata: ({ actor, params, body }) => GroupTypeService.use((s) => s.updateMetadata(actor, params.project_id, body)),
  setDefaultColumns: ({ actor, params, body }) => GroupTypeService.use((s) => s.setDefaultColumns(actor, params.project_id, body)),
  destroy: ({ actor, params }) => GroupTypeService.use((s) => s.destroy(actor, params.project_id, params.group_type_index))
})
