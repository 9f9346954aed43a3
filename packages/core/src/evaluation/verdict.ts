/**
 * A property's or a condition's verdict, twice: what posthog-node decides when it evaluates the flag
 * locally, or that it leaves the flag to the flags service (`inconclusive`: it still tries later
 * conditions; `server`: it stops); and what PostHog's flags service answers. Hedgerow answers as the
 * SDK whenever the SDK decides, so that a flag reads the same evaluated locally or remotely, and as the
 * service otherwise.
 */
export type Deferral = "inconclusive" | "server"

export interface Verdict {
  readonly sdk: boolean | Deferral
  readonly service: boolean
}

export const MATCH: Verdict = { sdk: true, service: true }
export const NO_MATCH: Verdict = { sdk: false, service: false }

export const decided = (matches: boolean): Verdict => (matches ? MATCH : NO_MATCH)

export const deferred = (service: boolean, deferral: Deferral = "inconclusive"): Verdict => ({ sdk: deferral, service })

/**
 * All of several verdicts, as the SDK reads a condition: a decided false decides (the verdicts after
 * it are not computed), else the first deferral stands (a later `server` after an `inconclusive` reads
 * as inconclusive).
 */
export const allOf = <T>(items: ReadonlyArray<T>, verdictOf: (item: T) => Verdict): Verdict => {
  let deferral: Deferral | undefined
  let service = true
  for (const item of items) {
    const verdict = verdictOf(item)
    if (verdict.sdk === false) return NO_MATCH
    if (verdict.sdk !== true) deferral ??= verdict.sdk
    service &&= verdict.service
  }
  return deferral === undefined ? MATCH : deferred(service, deferral)
}

export const not = (verdict: Verdict): Verdict =>
  typeof verdict.sdk === "boolean" ? decided(!verdict.sdk) : deferred(!verdict.service, verdict.sdk)
