import { Schema } from "effect"

/**
 * What posthog-js loads first of all, `/array/{token}/config` (or as a script, `config.js`): PostHog's
 * remote configuration of its web SDK, in PostHog's field names and order. It offers what this server
 * serves, flags and the capture endpoints, and turns everything else off, autocapture included, so
 * posthog-js loads no other script and sends no event only to have it dropped. `surveys` is left out
 * rather than false, since posthog-js reads false as "load the surveys script". Each choice is in
 * docs/decisions.md ("SDK bodies and the events they send").
 */
export const SdkRemoteConfig = Schema.Struct({
  token: Schema.String,
  /** Every compression the capture and flags endpoints read; posthog-js takes gzip-js from it. */
  supportedCompression: Schema.Array(Schema.String),
  /** Whether the project has an active flag, as PostHog counts them: posthog-js asks `/flags` only then. */
  hasFeatureFlags: Schema.Boolean,
  captureDeadClicks: Schema.Boolean,
  capturePerformance: Schema.Boolean,
  autocapture_opt_out: Schema.Boolean,
  autocaptureExceptions: Schema.Boolean,
  /** Where posthog-js sends its events. */
  analytics: Schema.Struct({ endpoint: Schema.String }),
  elementsChainAsString: Schema.Boolean,
  errorTracking: Schema.Struct({ autocaptureExceptions: Schema.Boolean, suppressionRules: Schema.Array(Schema.Unknown) }),
  sessionRecording: Schema.Boolean,
  heatmaps: Schema.Boolean,
  productTours: Schema.Boolean,
  conversations: Schema.Boolean,
  /** PostHog's default for every project: person profiles for identified users only. */
  defaultIdentifiedOnly: Schema.Boolean,
  siteApps: Schema.Array(Schema.Unknown)
})
export type SdkRemoteConfig = typeof SdkRemoteConfig.Type

/** How an SDK body may be encoded, by every name the SDKs and PostHog's capture give each: what `/flags` and the capture endpoints undo. */
export const COMPRESSIONS: Readonly<Record<string, "gzip" | "lz64" | "base64">> = {
  gzip: "gzip",
  "gzip-js": "gzip",
  lz64: "lz64",
  "lz-string": "lz64",
  base64: "base64",
  b64: "base64"
}

/** What the remote configuration offers posthog-js, in the names it knows (it picks `gzip-js`). */
const SUPPORTED_COMPRESSION: ReadonlyArray<keyof typeof COMPRESSIONS> = ["gzip", "gzip-js", "base64", "lz64"]

/** The remote configuration of the project whose public token is `token`. */
export const sdkRemoteConfig = (token: string, hasFeatureFlags: boolean): SdkRemoteConfig => ({
  token,
  supportedCompression: SUPPORTED_COMPRESSION,
  hasFeatureFlags,
  captureDeadClicks: false,
  capturePerformance: false,
  autocapture_opt_out: true,
  autocaptureExceptions: false,
  analytics: { endpoint: "/i/v0/e/" },
  elementsChainAsString: true,
  errorTracking: { autocaptureExceptions: false, suppressionRules: [] },
  sessionRecording: false,
  heatmaps: false,
  productTours: false,
  conversations: false,
  defaultIdentifiedOnly: true,
  siteApps: []
})
