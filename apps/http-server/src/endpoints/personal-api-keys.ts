import { PersonalApiKeyService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const personalApiKeys = bindGroup("personalApiKeys", {
  list: ({ actor }) => PersonalApiKeyService.use((s) => s.list(actor)),
  create: ({ actor, body }) => PersonalApiKeyService.use((s) => s.createOwn(actor, body)),
  retrieve: ({ actor, params }) => PersonalApiKeyService.use((s) => s.retrieve(actor, params.id)),
  update: ({ actor, params, body }) => PersonalApiKeyService.use((s) => s.update(actor, params.id, body)),
  destroy: ({ actor, params }) => PersonalApiKeyService.use((s) => s.destroy(actor, params.id)),
  roll: ({ actor, params, body }) => PersonalApiKeyService.use((s) => s.roll(actor, params.id, body))
})
