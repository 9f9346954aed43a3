import { CliAuthorizeBody, CliAuthorized, CliPollAuthorized, CliPollBody, CliPollPending, DeviceCodeGrant } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ThrottledResponse, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/**
 * The CLI's log-in through the browser (RFC 8628's device authorization, as PostHog's CLI uses it): the
 * CLI asks for codes and polls, with no Authorization; a person approves in the console.
 */
export class CliAuthGroup extends HttpApiGroup.make("cliAuth")
  .add(
    HttpApiEndpoint.post("deviceCode", "/api/cli-auth/device-code/", {
      success: DeviceCodeGrant,
      error: [...WriteErrors, ThrottledResponse]
    }).annotate(
      OpenApi.Description,
      "Start a CLI log-in: `device_code` (the CLI's secret, to poll with), `user_code` (`ABCD-1234`, for the person), the console page to approve it at, `expires_in` 600 and `interval` 5 seconds. Any body is ignored; 30 a client address may ask for in ten minutes"
    ),
    HttpApiEndpoint.post("poll", "/api/cli-auth/poll/", {
      payload: CliPollBody,
      success: [CliPollAuthorized, CliPollPending.pipe(HttpApiSchema.status(202))],
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "202 `pending` until a person approves the code; then 200 `authorized` with `personal_api_key` (a new key with scope `*`, shown this once), `label` and `project_id`. 400 `expired_token` for a code unknown, expired or already used, 400 `slow_down` for a poll sooner than `interval` after the last one"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "CLI log-in" }))
{}

/** Approving a CLI log-in: a logged-in browser only, with its CSRF token; a personal API key is refused (403). */
export class CliAuthApprovalGroup extends HttpApiGroup.make("cliAuthApproval")
  .add(
    HttpApiEndpoint.post("authorize", "/api/cli-auth/authorize/", {
      payload: CliAuthorizeBody,
      success: CliAuthorized,
      error: [...WriteErrors, ThrottledResponse]
    }).annotate(
      OpenApi.Description,
      "Approve `user_code` for `project_id`, a project of the caller's: the CLI's next poll receives a new key of the caller's with scope `*`. 400 `invalid_code` for a code unknown or expired (ten wrong codes in ten minutes answer 429), 400 `already_authorized`, 404 for a project that is not the caller's"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "CLI log-in" }))
{}
