import { envelopeOf, type LoggedIn, SessionService, SignInLinkService, type TwoFactorPending } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

/** A log-in's answer: the session's cookies, or PostHog's 401 for one waiting for its two-factor code, with the cookie that lets it finish. */
const loginAnswer = (outcome: LoggedIn | TwoFactorPending) =>
  "_tag" in outcome
    ? answer<{ readonly success: boolean }>(401, {}, JSON.stringify(envelopeOf(outcome.failure).body), outcome.cookies)
    : answer<{ readonly success: boolean }>(200, {}, JSON.stringify({ success: true }), outcome.cookies)

export const sessions = bindGroup("sessions", {
  login: ({ request, body }) => SessionService.use((s) => s.login(request, body)).pipe(Effect.map(loginAnswer)),
  loginLink: ({ request, body }) => SignInLinkService.use((s) => s.redeem(request, body)).pipe(Effect.map(loginAnswer)),
  logout: ({ request }) =>
    SessionService.use((s) => s.logout(request)).pipe(Effect.map(({ cookies }) => answer<void>(204, {}, undefined, cookies)))
})
