import type { EvaluationRuntime } from "../feature-flags/model.ts"

/** The request headers PostHog's flags service tells the caller's runtime by, when it does not say. */
export interface RuntimeHints {
  readonly "user-agent"?: string | undefined
  readonly origin?: string | undefined
  readonly referer?: string | undefined
  readonly "sec-fetch-mode"?: string | undefined
  readonly "sec-fetch-site"?: string | undefined
}

const BROWSERS = ["Mozilla/", "Chrome/", "Safari/", "Firefox/", "Edge/"]
const SERVER_SDKS = ["posthog-python/", "posthog-ruby/", "posthog-php/", "posthog-java/", "posthog-go/", "posthog-node/", "posthog-dotnet/", "posthog-elixir/"]
const SERVER_CLIENTS = ["python-requests/", "curl/"]
const MOBILE_SDKS = ["posthog-android/", "posthog-ios/", "posthog-react-native/", "posthog-flutter/"]

/**
 * The runtime a `/flags` request evaluates in: the one it names, else as its User-Agent reads (a
 * browser, a server SDK or client, a mobile SDK), else a browser's headers make it a client; undefined
 * when nothing tells.
 */
export const requestRuntime = (named: EvaluationRuntime | undefined, hints: RuntimeHints): EvaluationRuntime | undefined => {
  if (named !== undefined) return named
  const agent = hints["user-agent"]
  if (agent !== undefined) {
    if (BROWSERS.some((browser) => agent.includes(browser))) return "client"
    if (SERVER_SDKS.some((sdk) => agent.startsWith(sdk)) || SERVER_CLIENTS.some((client) => agent.includes(client))) return "server"
    if (MOBILE_SDKS.some((sdk) => agent.startsWith(sdk))) return "client"
  }
  const browserHeaders = [hints.origin, hints.referer, hints["sec-fetch-mode"], hints["sec-fetch-site"]]
  return browserHeaders.some((value) => value !== undefined) ? "client" : undefined
}

/**
 * Whether a flag is evaluated for a request in `runtime`: flags for every runtime always are, flags for
 * one runtime only in that one, or for a caller in `all`; a caller whose runtime is unknown gets only the
 * flags for every runtime.
 */
export const runsIn = (flag: EvaluationRuntime, runtime: EvaluationRuntime | undefined): boolean =>
  flag === "all" || runtime === "all" || flag === runtime
