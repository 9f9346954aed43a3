import { isTruthy, type JsonRecord } from "../shared/fields.ts"

/** A remote configuration flag's payload, as stored for `"true"`, or null when it has none (Python-falsy). */
export const remoteConfigPayload = (payloads: JsonRecord | null): unknown => {
  const payload = payloads !== null && Object.prototype.hasOwnProperty.call(payloads, "true") ? payloads["true"] : null
  return isTruthy(payload) ? payload : null
}
