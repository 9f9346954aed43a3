import { LoginPrecheckService } from "@hedgerow/core"
import { bindGroup } from "./binding.ts"

export const loginPrecheck = bindGroup("loginPrecheck", {
  precheck: ({ request, body }) => LoginPrecheckService.use((s) => s.precheck(request, body))
})
