import { Buffer } from "node:buffer"
import { joinedJson, keptJson } from "../shared/json-bytes.ts"
import type { FlagResult } from "../evaluation/model.ts"
import type {
  DecideV1Response,
  DecideV2Response,
  FlagDetails,
  FlagsResponse,
  FlagsV2Response,
  LegacyFlagsResponse
} from "./model.ts"

/** A `/flags` request's flags, evaluated: those answered, in the project's order. */
export interface FlagsAnswer {
  readonly flags: ReadonlyArray<FlagResult>
  readonly errorsWhileComputingFlags: boolean
  readonly requestId: string
  /** Milliseconds since the epoch. */
  readonly evaluatedAt: number
}

/** The answer's shapes, by the version the request asks for. */
export type FlagsFormat = "v2" | "legacy" | "decideV1" | "decideV2"

/** `v` as the service reads it: an integer (a sign allowed), anything else 1; absent or empty, none. */
const versionOf = (v: string | undefined): number | undefined => {
  if (v === undefined || v === "") return undefined
  const version = /^[+-]?\d{1,10}$/.test(v) ? Number(v) : Number.NaN
  return Number.isInteger(version) && Math.abs(version) <= 2_147_483_647 ? version : 1
}

/**
 * `/flags`: v2 from `v=2` up, else the legacy shape (also without `v`). `/decide`, the older path the
 * same service answers: the legacy shape at `v=3`, v2 from `v=4`, else decide's own (v2 values, or v1
 * keys).
 */
export const flagsFormat = (path: "flags" | "decide", v: string | undefined): FlagsFormat => {
  const version = versionOf(v)
  if (path === "flags") return version !== undefined && version >= 2 ? "v2" : "legacy"
  if (version === undefined) return "decideV1"
  if (version >= 4) return "v2"
  return version === 3 ? "legacy" : version === 2 ? "decideV2" : "decideV1"
}

const valueOf = (result: FlagResult) => result.variant ?? result.enabled

/** A record keyed by flag keys: without a prototype, a flag keyed `__proto__` is a key like any other. */
const byKey = <A>(): Record<string, A> => Object.create(null) as Record<string, A>

/** One flag's result as `/flags?v=2` answers it: value, reason, and its id, version and payload. */
export const flagDetailsOf = (result: FlagResult): FlagDetails => ({
  key: result.key,
  enabled: result.enabled,
  variant: result.variant,
  reason: result.reason,
  metadata: { id: result.id, version: result.version, description: null, payload: result.payload ?? null }
})

const v2 = (answer: FlagsAnswer): FlagsV2Response => {
  const flags = byKey<FlagsV2Response["flags"][string]>()
  for (const result of answer.flags) flags[result.key] = flagDetailsOf(result)
  return { errorsWhileComputingFlags: answer.errorsWhileComputingFlags, flags, requestId: answer.requestId, evaluatedAt: answer.evaluatedAt }
}

const legacy = (answer: FlagsAnswer): LegacyFlagsResponse => {
  const featureFlags = byKey<boolean | string>()
  const featureFlagPayloads = byKey<unknown>()
  for (const result of answer.flags) {
    featureFlags[result.key] = valueOf(result)
    // Only the payloads there are, as the service sends them.
    if (result.payload !== null && result.payload !== undefined) featureFlagPayloads[result.key] = result.payload
  }
  return {
    errorsWhileComputingFlags: answer.errorsWhileComputingFlags,
    featureFlags,
    featureFlagPayloads,
    requestId: answer.requestId,
    evaluatedAt: answer.evaluatedAt
  }
}

const decideV1 = (answer: FlagsAnswer): DecideV1Response => ({
  featureFlags: answer.flags.filter((result) => result.enabled).map((result) => result.key),
  requestId: answer.requestId,
  evaluatedAt: answer.evaluatedAt
})

const decideV2 = (answer: FlagsAnswer): DecideV2Response => ({
  featureFlags: Object.fromEntries(answer.flags.filter((result) => result.enabled).map((result) => [result.key, valueOf(result)])),
  requestId: answer.requestId,
  evaluatedAt: answer.evaluatedAt
})

/**
 * Each result's v2 entry as JSON, kept with it. Evaluation gives the same result object for the same
 * outcome of the same flag (see `resultFrom`), so an answer is put together from bytes made once per
 * flag and outcome, outside the JavaScript heap.
 */
const v2Entry = keptJson((result: FlagResult) => `${JSON.stringify(result.key)}:${JSON.stringify(flagDetailsOf(result))}`)

/** The answer in the shape asked for, as the bytes of its JSON: the v2 shape from its entries' bytes, the others from their objects. */
export const flagsResponseJson = (answer: FlagsAnswer, format: FlagsFormat): Buffer =>
  format !== "v2"
    ? Buffer.from(JSON.stringify(flagsResponse(answer, format)))
    : joinedJson(
      `{"errorsWhileComputingFlags":${answer.errorsWhileComputingFlags},"flags":{`,
      answer.flags,
      v2Entry,
      `},"requestId":${JSON.stringify(answer.requestId)},"evaluatedAt":${answer.evaluatedAt}}`
    )

/** The answer in the shape asked for. */
export const flagsResponse = (answer: FlagsAnswer, format: FlagsFormat): FlagsResponse => {
  switch (format) {
    case "v2":
      return v2(answer)
    case "legacy":
      return legacy(answer)
    case "decideV1":
      return decideV1(answer)
    case "decideV2":
      return decideV2(answer)
  }
}
