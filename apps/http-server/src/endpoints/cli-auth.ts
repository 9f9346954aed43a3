import { CliAuthService, type CliPollAuthorized } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

export const cliAuth = bindGroup("cliAuth", {
  deviceCode: ({ request }) => CliAuthService.use((s) => s.deviceCode(request.clientAddress)),
  // Pending is 202, as PostHog answers it: the CLI keeps polling.
  poll: ({ body }) =>
    CliAuthService.use((s) => s.poll(body)).pipe(
      Effect.map((polled) =>
        polled.status === "pending" ? answer<CliPollAuthorized>(202, {}, JSON.stringify(polled)) : polled
      )
    )
})

export const cliAuthApproval = bindGroup("cliAuthApproval", {
  authorize: ({ actor, body }) => CliAuthService.use((s) => s.authorize(actor, body))
})
