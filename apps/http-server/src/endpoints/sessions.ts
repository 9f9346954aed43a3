import { SessionService } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

export const sessions = bindGroup("sessions", {
  login: ({ request, body }) =>
    SessionService.use((s) => s.login(request, body)).pipe(
      Effect.map(({ cookies }) => answer<{ readonly success: boolean }>(200, {}, JSON.stringify({ success: true }), cookies))
    ),
  logout: ({ request }) =>
    SessionService.use((s) => s.logout(request)).pipe(Effect.map(({ cookies }) => answer<void>(204, {}, undefined, cookies)))
})
