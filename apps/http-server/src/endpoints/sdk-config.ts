import { FlagEvaluationService, type SdkRemoteConfig } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

/**
 * The remote configuration as the script posthog-js loads (`config.js`), laid out as PostHog's: it adds
 * the project's entry to `window._POSTHOG_REMOTE_CONFIG`, whose `config` posthog-js reads; the site apps
 * stand beside the configuration, not in it.
 */
const sdkConfigScript = (config: SdkRemoteConfig): string => {
  const { siteApps: _, ...rest } = config
  return `(function() {
  window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {};
  window._POSTHOG_REMOTE_CONFIG[${JSON.stringify(config.token)}] = {
    config: ${JSON.stringify(rest)},
    siteApps: []
  }
})();`
}

export const sdkConfig = bindGroup("sdkConfig", {
  config: ({ params }) => FlagEvaluationService.use((s) => s.sdkConfig(params.token)),
  configScript: ({ params }) => FlagEvaluationService.use((s) => s.sdkConfig(params.token)).pipe(Effect.map(sdkConfigScript))
})
