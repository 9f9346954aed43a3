import { DEFAULT_RETRY_DELAYS, WebhookSettings } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { WebhooksFromConfig } from "../src/settings/webhooks.ts"

const read = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.service(WebhookSettings).pipe(
      Effect.provide(WebhooksFromConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))),
      Effect.catchTag("WebhookConfigError", (error) => Effect.succeed(error.message))
    )
  )

describe("the webhook settings", () => {
  it("keep the defaults when unset: private addresses refused, retries for about 18 hours", async () => {
    expect(await read({})).toEqual({ allowPrivate: false, retryDelaysMillis: DEFAULT_RETRY_DELAYS, timeoutMillis: 10_000, concurrency: 8, pollMillis: 1000, retentionMillis: 30 * 86_400_000 })
    expect(DEFAULT_RETRY_DELAYS.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(17.6, 1)
  })

  it("read each variable", async () => {
    expect(await read({
      HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true",
      HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS: "100, 200,300",
      HEDGEROW_WEBHOOKS_TIMEOUT_MS: "1500",
      HEDGEROW_WEBHOOKS_CONCURRENCY: "2",
      HEDGEROW_WEBHOOKS_POLL_MS: "20",
      HEDGEROW_WEBHOOKS_RETENTION_DAYS: "7"
    })).toEqual({ allowPrivate: true, retryDelaysMillis: [100, 200, 300], timeoutMillis: 1500, concurrency: 2, pollMillis: 20, retentionMillis: 7 * 86_400_000 })
  })

  it("refuse a value that is not a usable number, naming it", async () => {
    expect(await read({ HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS: "5,soon" })).toBe(
      "HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS must be a whole number from 1 to 2147483647, not \"soon\""
    )
    expect(await read({ HEDGEROW_WEBHOOKS_TIMEOUT_MS: "0" })).toBe("HEDGEROW_WEBHOOKS_TIMEOUT_MS must be a whole number from 1 to 2147483647, not \"0\"")
    expect(await read({ HEDGEROW_WEBHOOKS_CONCURRENCY: "1e3" })).toBe("HEDGEROW_WEBHOOKS_CONCURRENCY must be a whole number from 1 to 1000, not \"1e3\"")
  })
})
