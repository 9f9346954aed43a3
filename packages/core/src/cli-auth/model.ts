import { Schema } from "effect"
import { Integer, Text } from "../shared/fields.ts"
import { ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** `POST /api/cli-auth/device-code/`: what the CLI shows the person and polls with. */
export const DeviceCodeGrant = Schema.Struct({
  /** The CLI's secret, for polling; never shown. */
  device_code: Schema.String,
  /** What the person checks (or types) in the browser, `ABCD-1234`. */
  user_code: Schema.String,
  /** `<site>/cli/authorize`, the console's page. */
  verification_uri: Schema.String,
  /** The same page with `?code=<user_code>`. */
  verification_uri_complete: Schema.String,
  expires_in: Schema.Number,
  interval: Schema.Number
})
export type DeviceCodeGrant = typeof DeviceCodeGrant.Type

/** `POST /api/cli-auth/authorize/`: the code the person approves and the project the CLI will work in. */
export const CliAuthorizeBody = Schema.Struct({
  user_code: Text({ max: 9 }),
  project_id: Integer
})

/** The approval recorded: the key is made when the CLI next polls, so there is no mask to show yet. */
export const CliAuthorized = Schema.Struct({
  status: Schema.Literal("success"),
  /** The label the key will carry. */
  label: Schema.String
})
export type CliAuthorized = typeof CliAuthorized.Type

/** `POST /api/cli-auth/poll/`: the device code the CLI was given. */
export const CliPollBody = Schema.Struct({ device_code: Text() })

/** 202: not approved yet; poll again after the interval. */
export const CliPollPending = Schema.Struct({ status: Schema.Literal("pending") })
export type CliPollPending = typeof CliPollPending.Type

/** 200: approved. The key is shown this once; the device code is spent. */
export const CliPollAuthorized = Schema.Struct({
  status: Schema.Literal("authorized"),
  personal_api_key: Schema.String,
  label: Schema.String,
  /** As text, as PostHog answers it. */
  project_id: Schema.String
})
export type CliPollAuthorized = typeof CliPollAuthorized.Type

/**
 * A device authorization as stored: the hashes of its two codes, never the codes; once a person approves
 * it, who and for which project, with the label the key will carry. No key exists until the CLI polls.
 */
export const CliAuthRequest = Schema.Struct({
  id: Schema.String,
  expires_at: Timestamp,
  last_polled_at: Schema.NullOr(Timestamp),
  approved_by: Schema.NullOr(UserId),
  project_id: Schema.NullOr(ProjectId),
  label: Schema.NullOr(Schema.String)
})
export type CliAuthRequest = typeof CliAuthRequest.Type
