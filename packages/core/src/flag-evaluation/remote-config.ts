import { isRecord, type JsonRecord } from "../shared/fields.ts"

/** Python's falsiness, which decides whether a remote configuration flag has a payload to send. */
const isFalsy = (value: unknown): boolean =>
  value === null || value === undefined || value === false || value === 0 || value === "" ||
  (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0)

/** A remote configuration flag's payload, as stored for `"true"`, or null when it has none. */
export const remoteConfigPayload = (payloads: JsonRecord | null): unknown => {
  const payload = payloads !== null && Object.prototype.hasOwnProperty.call(payloads, "true") ? payloads["true"] : null
  return isFalsy(payload) ? null : payload
}
