import { envelopeOf, SessionService } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

export const sessions = bindGroup("sessions", {
  login: ({ request, body }) =>
    SessionService.use((s) => s.login(request, body)).pipe(
      Effect.map((outcome) =>
        "_tag" in outcome
          // A log-in waiting for its two-factor code: PostHog's 401, with the cookie that lets it finish.
          ? answer<{ readonly success: boolean }>(401, {}, JSON.stringify(envelopeOf(outcome.failure).body), outcome.cookies)
          : answer<{ readonly success: boolean }>(200, {}, JSON.stringify({ success: true }), outcome.cookies)
      )
    ),
  logout: ({ request }) =>
    SessionService.use((s) => s.logout(request)).pipe(Effect.map(({ cookies }) => answer<void>(204, {}, undefined, cookies)))
})
