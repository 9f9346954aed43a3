import { PersonalApiKeyService, UserService } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./endpoint.ts"

export const identity = bindGroup("identity", {
  me: ({ actor }) => UserService.use((s) => s.me(actor)),
  currentKey: ({ actor }) => PersonalApiKeyService.use((s) => Effect.succeed(s.current(actor)))
})
