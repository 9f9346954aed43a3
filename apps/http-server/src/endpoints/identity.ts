import { PersonalApiKeyService, UserService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const identity = bindGroup("identity", {
  me: ({ actor }) => UserService.use((s) => s.me(actor)),
  updateMe: ({ actor, body }) => UserService.use((s) => s.updateMe(actor, body)),
  currentKey: ({ actor }) => PersonalApiKeyService.use((s) => s.current(actor))
})
