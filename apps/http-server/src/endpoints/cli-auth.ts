import { CliAuthService, type CliAuthorized, type CliPollAuthorized, type DeviceCodeGrant, type Throttled } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { envelopeReply } from "../answers/envelope.ts"
import { bindGroup } from "./binding.ts"

/**
 * A 429 of these endpoints as the server sends every 429, with the wait in Retry-After too: an error an
 * endpoint declares is otherwise encoded by its schema alone, which has no headers.
 */
const withRetryAfter = <A>(throttled: Throttled) => {
  const { status, headers, json } = envelopeReply(throttled)
  return Effect.succeed(answer<A>(status, headers, json))
}

export const cliAuth = bindGroup("cliAuth", {
  deviceCode: ({ request }) =>
    CliAuthService.use((s) => s.deviceCode(request.clientAddress)).pipe(Effect.catchTag("Throttled", withRetryAfter<DeviceCodeGrant>)),
  // Pending is 202, as PostHog answers it: the CLI keeps polling.
  poll: ({ body }) =>
    CliAuthService.use((s) => s.poll(body)).pipe(
      Effect.map((polled) =>
        polled.status === "pending" ? answer<CliPollAuthorized>(202, {}, JSON.stringify(polled)) : polled
      )
    )
})

export const cliAuthApproval = bindGroup("cliAuthApproval", {
  authorize: ({ actor, body }) =>
    CliAuthService.use((s) => s.authorize(actor, body)).pipe(Effect.catchTag("Throttled", withRetryAfter<CliAuthorized>))
})
