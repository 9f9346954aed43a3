import { Context } from "effect"

export interface WebhookOptions {
  /** Whether receivers may be on loopback, link-local or private addresses (off: such URLs are refused). */
  readonly allowPrivate: boolean
  /** The waits after each failed attempt; when they run out the delivery has failed. */
  readonly retryDelaysMillis: ReadonlyArray<number>
  /** How long one attempt may take, connection to last byte read. */
  readonly timeoutMillis: number
  /** Attempts in flight at once, per process. */
  readonly concurrency: number
  /** How often the worker looks for due deliveries when no notification wakes it. */
  readonly pollMillis: number
  /** How long a delivery that ended (delivered or failed) is kept, with its attempts, to be read. */
  readonly retentionMillis: number
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Six retries over about 18 hours: a receiver that is down for a deploy gets the change within seconds
 * or minutes, one down for a night still gets it the next morning.
 */
export const DEFAULT_RETRY_DELAYS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR]

export const WebhookSettings = Context.Reference<WebhookOptions>("hedgerow/WebhookSettings", {
  defaultValue: () => ({
    allowPrivate: false,
    retryDelaysMillis: DEFAULT_RETRY_DELAYS,
    timeoutMillis: 10 * SECOND,
    concurrency: 8,
    pollMillis: SECOND,
    retentionMillis: 30 * DAY
  })
})

/** A wait from the schedule, spread by up to a fifth either way so that receivers that failed together are not retried together. */
export const withJitter = (millis: number, random: number): number => Math.round(millis * (0.8 + 0.4 * random))
