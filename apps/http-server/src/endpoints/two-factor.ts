import { type ActionSuccess, TwoFactorService } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

export const twoFactor = bindGroup("twoFactor", {
  startSetup: ({ actor }) => TwoFactorService.use((s) => s.startSetup(actor)),
  validate: ({ actor, body }) => TwoFactorService.use((s) => s.validate(actor, body)),
  status: ({ actor }) => TwoFactorService.use((s) => s.status(actor)),
  backupCodes: ({ actor }) => TwoFactorService.use((s) => s.backupCodes(actor)),
  disable: ({ actor }) => TwoFactorService.use((s) => s.disable(actor))
})

export const twoFactorLogin = bindGroup("twoFactorLogin", {
  token: ({ request, body }) =>
    TwoFactorService.use((s) => s.completeLogin(request, body)).pipe(
      Effect.map(({ cookies }) => answer<ActionSuccess>(200, {}, JSON.stringify({ success: true }), cookies))
    )
})
