import { Clock, Context, Effect, Layer } from "effect"
import { attemptCounter } from "../shared/attempts.ts"
import { failIfAny, type Throttled } from "../shared/errors.ts"

/**
 * The windows SSO traffic is counted in, per client address. Short, so that what one address may send
 * at once stays small: at most twice a window's budget straddling two windows.
 */
const WINDOW_MS = 5_000
/**
 * Log-in starts (SAML's and OAuth's together) an address may make in a window: each writes a row. Room
 * for a company's morning behind one NAT address, where people also click twice and start again.
 */
export const SSO_START_LIMIT = 32
/**
 * Answers an address may post to the SAML ACS in a window. Each waits for the process's one signature
 * worker: twice this budget (two windows straddled) stays well under the worker's queue, so one
 * address's bogus answers leave other addresses' log-ins their turn.
 */
export const SAML_ANSWER_LIMIT = 16

/** The log-in page's code for a throttled SSO request: the code of PostHog's throttled API errors. */
export const SSO_THROTTLED_CODE = "throttled"

/**
 * SSO requests per client address, in this process's memory as the log-in throttle keeps its counts:
 * a start and an answer each count once when admitted, and past the window's budget the address is
 * refused, with PostHog's words, until its window ends. Per process, as the signature worker an answer
 * waits for is.
 */
export class SsoThrottle extends Context.Service<SsoThrottle, {
  /** `GET /login/saml/` or `GET /login/<provider>/` from `address`, before it writes anything. */
  readonly start: (address: string) => Effect.Effect<void, Throttled>
  /** An answer posted to the ACS from `address`, before it waits for the signature worker. */
  readonly answer: (address: string) => Effect.Effect<void, Throttled>
}>()("hedgerow/SsoThrottle") {
  static readonly layer = Layer.sync(SsoThrottle, () => {
    const admit = (counter: ReturnType<typeof attemptCounter>) => (address: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.andThen(failIfAny(counter.refusal(address, now)), Effect.sync(() => counter.note(address, now))))
    return SsoThrottle.of({
      start: admit(attemptCounter(SSO_START_LIMIT, WINDOW_MS)),
      answer: admit(attemptCounter(SAML_ANSWER_LIMIT, WINDOW_MS))
    })
  })
}
