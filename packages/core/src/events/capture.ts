import { AuthenticationError, ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"

/**
 * A capture request's body as PostHog's capture reads it: a batch (`{api_key, batch: [...]}`, what
 * posthog-js and the server SDKs send), a list of events, or one event. The project is the batch's
 * token (`api_key`, `token`, `$token`), else the events' own (the same names on the event, then `token`
 * in its properties); events naming two projects are refused.
 */
export interface CaptureBatch {
  readonly token: string
  readonly events: ReadonlyArray<CapturedEvent>
}

/** An event as far as this service reads one: its name and properties. */
export interface CapturedEvent {
  readonly event: string
  readonly properties: JsonRecord
}

/** PostHog's capture refusals, with its codes and words. */
const refused = (code: string, detail: string) => new ValidationError({ code, detail, attr: null })
const emptyBatch = () => refused("empty_batch", "request holds no event")
const unreadable = (reason: string) => refused("request_parsing_error", `failed to parse request: ${reason}`)
const missingEventName = () => refused("missing_event_name", "event submitted with an empty event name")
const missingDistinctId = () => refused("missing_distinct_id", "event submitted without a distinct_id")
const inconsistentTokens = () => refused("unroutable_events", "batch submitted with inconsistent api_key values")

const TOKEN_NAMES = ["api_key", "token", "$token"] as const

const tokenIn = (record: JsonRecord): string | undefined => {
  for (const name of TOKEN_NAMES) {
    const value = record[name]
    if (typeof value === "string" && value !== "") return value
  }
  return undefined
}

const hasDistinctId = (value: unknown) => (typeof value === "string" && value !== "") || typeof value === "number"

/**
 * `/engage/` bodies of older SDKs carry person updates without an event name: PostHog reads them as
 * `$identify`. Elsewhere an event needs a name.
 */
const eventOf = (raw: unknown, engage: boolean): CapturedEvent | ValidationError => {
  if (!isRecord(raw)) return unreadable("an event must be an object")
  const properties = isRecord(raw.properties) ? raw.properties : {}
  const name = raw.event ?? (engage ? "$identify" : undefined)
  if (typeof name !== "string" || name === "") return missingEventName()
  if (!hasDistinctId(raw.distinct_id) && !hasDistinctId(properties.distinct_id) && !hasDistinctId(raw.$distinct_id)) {
    return missingDistinctId()
  }
  return { event: name, properties }
}

/** The events of a capture body and the token naming their project, or PostHog's refusal. */
export const readCaptureBatch = (
  body: unknown,
  options: { readonly engage: boolean }
): CaptureBatch | ValidationError | AuthenticationError => {
  let raws: ReadonlyArray<unknown>
  let token: string | undefined
  if (Array.isArray(body)) raws = body
  else if (isRecord(body) && Array.isArray(body.batch)) {
    raws = body.batch
    token = tokenIn(body)
  } else if (isRecord(body)) raws = [body]
  else return unreadable("the body must be an event, a list of events or a batch")
  if (raws.length === 0) return emptyBatch()
  if (token === undefined) {
    for (const raw of raws) {
      if (!isRecord(raw)) continue
      const own = tokenIn(raw) ?? (isRecord(raw.properties) ? tokenIn(raw.properties) : undefined)
      if (own === undefined) continue
      if (token !== undefined && own !== token) return inconsistentTokens()
      token = own
    }
  }
  if (token === undefined) return AuthenticationError.noIngestKey()
  const events: Array<CapturedEvent> = []
  for (const raw of raws) {
    const event = eventOf(raw, options.engage)
    if (event instanceof ValidationError) return event
    events.push(event)
  }
  return { token, events }
}
