import { PersonalApiKeyService, UserService } from "@hedgerow/core"
import { Effect } from "effect"
import type { Operation } from "../operation.ts"

export const identity = {
  me: ({ actor }) => UserService.use((s) => s.me(actor)),
  currentKey: ({ actor }) => PersonalApiKeyService.use((s) => Effect.succeed(s.current(actor)))
} as const satisfies Record<string, Operation>
