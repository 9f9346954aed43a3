import type { EvaluationRuntime } from "../feature-flags/model.ts"
import { readDistinctId } from "../shared/distinct-id.ts"
import { ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { boundsError, type EvaluatedFields, MAX_GROUPS } from "./request-bounds.ts"

/**
 * A `/flags` request's body as PostHog's flags service reads it: each field under its name or its alias
 * (`$token`, `api_key`, `$distinct_id`, `$properties`, `$groups`, `$group_properties`,
 * `$anon_distinct_id`, `$device_id`, `flag_keys_to_evaluate`), absent or null alike. A field of
 * another type than the service takes makes the whole body unreadable, as there.
 */
export interface FlagsRequest extends EvaluatedFields {
  readonly token: string | undefined
  /** Text, a number as its text, cut to 200 characters; undefined when not given. */
  readonly distinct_id: string | undefined
  /** The runtime the caller says it evaluates in; any other text is `all`. */
  readonly evaluation_runtime: EvaluationRuntime | undefined
  /** The caller wants its configuration only: no flag is evaluated. */
  readonly disable_flags: boolean
}

/** PostHog's answer to a body it cannot read. */
export const malformedData = (reason: string) =>
  new ValidationError({ code: "malformed_data", detail: `Malformed request data: ${reason}`, attr: null })

/** PostHog's answer to a request without a distinct id. */
export const missingDistinctId = () =>
  new ValidationError({ code: "missing_distinct_id", detail: "Decide requires a distinct_id.", attr: null })

/** Thrown while reading a body: why it cannot be read. */
class Unreadable {
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

const hasOwn = (record: JsonRecord, key: string) => Object.prototype.hasOwnProperty.call(record, key)

/** The first of the names the body gives a non-null value under, and that value. */
const fieldOf = (body: JsonRecord, names: ReadonlyArray<string>): readonly [string, unknown] | undefined => {
  for (const name of names) {
    if (hasOwn(body, name) && body[name] !== null && body[name] !== undefined) return [name, body[name]]
  }
  return undefined
}

const text = (body: JsonRecord, ...names: ReadonlyArray<string>): string | undefined => {
  const field = fieldOf(body, names)
  if (field === undefined) return undefined
  if (typeof field[1] !== "string") throw new Unreadable(`${field[0]} must be a string`)
  return field[1]
}

const object = (body: JsonRecord, ...names: ReadonlyArray<string>): JsonRecord => {
  const field = fieldOf(body, names)
  if (field === undefined) return {}
  if (!isRecord(field[1])) throw new Unreadable(`${field[0]} must be an object`)
  return field[1]
}

const distinctIdOf = (body: JsonRecord): string | undefined => {
  const field = fieldOf(body, ["distinct_id", "$distinct_id"])
  if (field === undefined) return undefined
  const [name, value] = field
  if (typeof value !== "string" && typeof value !== "number") throw new Unreadable(`${name} must be a string or a number`)
  return readDistinctId(String(value))
}

const groupPropertiesOf = (body: JsonRecord): Readonly<Record<string, JsonRecord>> => {
  const all = object(body, "group_properties", "$group_properties")
  // Counted before it is walked: a map of a hundred thousand groups is looked at once.
  const types = Object.keys(all)
  if (types.length > MAX_GROUPS) throw new Unreadable(`group_properties holds more than ${MAX_GROUPS} groups`)
  for (const type of types) {
    if (!isRecord(all[type])) throw new Unreadable(`the group_properties of ${type} must be an object`)
  }
  return all as Readonly<Record<string, JsonRecord>>
}

const flagKeysOf = (body: JsonRecord): ReadonlyArray<string> | undefined => {
  const field = fieldOf(body, ["flag_keys", "flag_keys_to_evaluate"])
  if (field === undefined) return undefined
  const [name, keys] = field
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === "string")) throw new Unreadable(`${name} must be a list of strings`)
  return keys
}

const runtimeOf = (body: JsonRecord): EvaluationRuntime | undefined => {
  const given = text(body, "evaluation_runtime")
  if (given === undefined) return undefined
  const runtime = given.toLowerCase()
  return runtime === "client" || runtime === "server" ? runtime : "all"
}

const disableFlagsOf = (body: JsonRecord): boolean => {
  const field = fieldOf(body, ["disable_flags"])
  if (field === undefined) return false
  if (typeof field[1] !== "boolean") throw new Unreadable("disable_flags must be a boolean")
  return field[1]
}

/** The request a body makes, or the 400 PostHog answers when it cannot read it. */
export const readFlagsRequest = (body: unknown): FlagsRequest | ValidationError => {
  if (!isRecord(body)) return malformedData("the body must be a JSON object")
  let request: FlagsRequest
  try {
    request = {
      token: text(body, "token", "$token", "api_key"),
      distinct_id: distinctIdOf(body),
      groups: object(body, "groups", "$groups"),
      person_properties: object(body, "person_properties", "$properties"),
      group_properties: groupPropertiesOf(body),
      flag_keys: flagKeysOf(body),
      anon_distinct_id: text(body, "$anon_distinct_id", "anon_distinct_id"),
      device_id: text(body, "$device_id", "device_id"),
      evaluation_runtime: runtimeOf(body),
      disable_flags: disableFlagsOf(body)
    }
  } catch (error) {
    if (error instanceof Unreadable) return malformedData(error.reason)
    throw error
  }
  const beyond = boundsError(body, request)
  return beyond === undefined ? request : malformedData(beyond)
}
