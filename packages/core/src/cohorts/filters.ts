import { regexPatternError } from "../evaluation/regex.ts"
import { parsableDate } from "../feature-flags/management/filter-rules.ts"
import { ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { pythonStr } from "../shared/validation.ts"
import {
  isRefusal,
  orNone,
  readAny,
  readBoolean,
  readInteger,
  readList,
  readLiteral,
  readString,
  readStringOrInteger,
  type Reading,
  type Refusal
} from "./coerce.ts"

/**
 * A dynamic cohort's `filters`, read as PostHog reads them:
 * `{properties: {type: AND|OR, values: [group or filter, ...]}}`, where a filter is a person property
 * (`type: person`, any operator, `negation`), another cohort (`type: cohort`, `key: id`, an integer
 * `value`) or a behavioral filter on events (stored; flags refuse cohorts holding one). PostHog stores
 * them with defaults filled in and nulls left out, and so does this service. PostHog names the missing
 * keys of a filter in words of its own; any other fault of shape it reports as a raw list of errors,
 * given here as the first fault's place and words.
 */

type Loc = ReadonlyArray<string | number>

interface Issue extends Refusal {
  readonly loc: Loc
}

/** The first fault found, and the first that names missing keys, which PostHog reports before any other. */
interface Faults {
  first: Issue | undefined
  missing: string | undefined
}

const FILTER_KINDS = ["behavioral", "cohort", "person"] as const
const TAGS = ["behavioral", "cohort", "person", "person_metadata", "AND", "OR"]

/** Keys PostHog computes on a filter (its compiled form), taken back unread when a client echoes them. */
const COMPUTED = new Set(["bytecode", "bytecode_error", "conditionHash"])

type Field = readonly [name: string, read: (value: unknown) => Reading<unknown>, fallback?: unknown]

const REQUIRED = Symbol("required")

const PERSON_FIELDS: ReadonlyArray<Field> = [
  ["operator", orNone(readString)],
  ["value", readAny],
  ["type", readLiteral(["person"]), REQUIRED],
  ["key", readString, REQUIRED],
  ["negation", readBoolean, false]
]

const COHORT_FIELDS: ReadonlyArray<Field> = [
  ["type", readLiteral(["cohort"]), REQUIRED],
  ["key", readLiteral(["id"]), REQUIRED],
  ["value", readInteger, REQUIRED],
  ["negation", readBoolean, false]
]

const optionalText = orNone(readString)
const optionalInteger = orNone(readInteger)

const BEHAVIORAL_FIELDS: ReadonlyArray<Field> = [
  ["type", readLiteral(["behavioral"]), REQUIRED],
  ["key", readStringOrInteger, REQUIRED],
  ["value", readString, REQUIRED],
  ["event_type", readString, REQUIRED],
  ["time_value", optionalInteger],
  ["time_interval", optionalText],
  ["negation", readBoolean, false],
  ["operator", optionalText],
  ["operator_value", optionalInteger],
  ["seq_time_interval", optionalText],
  ["seq_time_value", optionalInteger],
  ["seq_event", orNone(readStringOrInteger)],
  ["seq_event_type", optionalText],
  ["total_periods", optionalInteger],
  ["min_periods", optionalInteger],
  ["event_filters", orNone(readList)],
  ["explicit_datetime", optionalText],
  ["explicit_datetime_to", optionalText]
]

const note = (faults: Faults, issue: Issue) => {
  faults.first ??= issue
  if (faults.missing !== undefined) return
  if (issue.type === "missing") {
    const kind = FILTER_KINDS.find((candidate) => issue.loc.includes(candidate))
    if (kind !== undefined) faults.missing = `Missing required keys for ${kind} filter: ${issue.loc.at(-1)}`
  } else if (issue.type === "value_error" && issue.msg.startsWith("Value error, Missing required keys")) {
    faults.missing = issue.msg.slice("Value error, ".length)
  }
}

/** An object's fields in PostHog's order, then its unknown keys; what is stored keeps what is not null. */
const readModel = (given: JsonRecord, fields: ReadonlyArray<Field>, loc: Loc, faults: Faults): JsonRecord | undefined => {
  const dump: Record<string, unknown> = {}
  let sound = true
  for (const [name, read, fallback] of fields) {
    if (!Object.prototype.hasOwnProperty.call(given, name)) {
      if (fallback === REQUIRED) {
        note(faults, { loc: [...loc, name], type: "missing", msg: "Field required" })
        sound = false
      } else if (fallback !== undefined) {
        dump[name] = fallback
      }
      continue
    }
    const reading = read(given[name])
    if (isRefusal(reading)) {
      note(faults, { ...reading, loc: [...loc, name] })
      sound = false
    } else if (reading.ok !== null && reading.ok !== undefined) {
      dump[name] = reading.ok
    }
  }
  const known = new Set(fields.map(([name]) => name))
  for (const key of Object.keys(given)) {
    if (known.has(key) || COMPUTED.has(key)) continue
    note(faults, { loc: [...loc, key], type: "extra_forbidden", msg: "Extra inputs are not permitted" })
    sound = false
  }
  return sound ? dump : undefined
}

const valueError = (faults: Faults, loc: Loc, message: string) => {
  note(faults, { loc, type: "value_error", msg: `Value error, ${message}` })
  return undefined
}

/**
 * PostHog's checks of a person filter once its fields read: the keys it needs, then a date operator's
 * date; and a pattern the regex engine cannot run, refused as a flag's is (see regexPatternError).
 */
const personRules = (dump: JsonRecord, loc: Loc, faults: Faults): JsonRecord | undefined => {
  const operator = dump["operator"]
  const value = dump["value"]
  const missing = [
    ...(value === undefined && operator !== "is_set" && operator !== "is_not_set" ? ["value"] : []),
    ...(operator === undefined ? ["operator"] : [])
  ]
  if (missing.length > 0) return valueError(faults, loc, `Missing required keys for person filter: ${missing.join(", ")}`)
  if ((operator === "is_date_after" || operator === "is_date_before") && value !== undefined && !parsableDate(value)) {
    return valueError(
      faults,
      loc,
      `Invalid date value '${pythonStr(value)}' for operator '${operator}'. Expected a relative date (e.g., '-7d', '30d') or an ISO 8601 date (e.g., '2024-01-15').`
    )
  }
  if ((operator === "regex" || operator === "not_regex") && typeof value === "string") {
    const error = regexPatternError(value)
    if (error !== undefined) return valueError(faults, loc, error)
  }
  return dump
}

const readFilter = (given: unknown, loc: Loc, faults: Faults): JsonRecord | undefined => {
  if (!isRecord(given)) {
    note(faults, { loc, type: "model_attributes_type", msg: "Input should be a valid dictionary or object to extract fields from" })
    return undefined
  }
  const tag = given["type"]
  if (tag === undefined || tag === null) {
    note(faults, { loc, type: "union_tag_not_found", msg: "Unable to extract tag using discriminator 'type'" })
    return undefined
  }
  const tagged = [...loc, String(tag)]
  switch (tag) {
    case "AND":
    case "OR":
      return readGroup(given, tagged, faults)
    case "person": {
      const dump = readModel(given, PERSON_FIELDS, tagged, faults)
      return dump === undefined ? undefined : personRules(dump, tagged, faults)
    }
    case "cohort":
      return readModel(given, COHORT_FIELDS, tagged, faults)
    case "behavioral":
      return readModel(given, BEHAVIORAL_FIELDS, tagged, faults)
    case "person_metadata":
      // PostHog reads these from its persons table; this service keeps no persons to read them from.
      note(faults, { loc: tagged, type: "unsupported", msg: "Filters on person_metadata need stored persons, which this service does not keep" })
      return undefined
    default:
      note(faults, {
        loc,
        type: "union_tag_invalid",
        msg: `Input tag '${pythonStr(tag)}' found using 'type' does not match any of the expected tags: ${TAGS.map((t) => `'${t}'`).join(", ")}`
      })
      return undefined
  }
}

const readGroup = (given: JsonRecord, loc: Loc, faults: Faults): JsonRecord | undefined => {
  const type = readLiteral(["AND", "OR"])(given["type"])
  let sound = true
  if (!Object.prototype.hasOwnProperty.call(given, "type")) {
    note(faults, { loc: [...loc, "type"], type: "missing", msg: "Field required" })
    sound = false
  } else if (isRefusal(type)) {
    note(faults, { ...type, loc: [...loc, "type"] })
    sound = false
  }
  const values: Array<JsonRecord> = []
  if (!Object.prototype.hasOwnProperty.call(given, "values")) {
    note(faults, { loc: [...loc, "values"], type: "missing", msg: "Field required" })
    sound = false
  } else {
    const list = readList(given["values"])
    if (isRefusal(list)) {
      note(faults, { ...list, loc: [...loc, "values"] })
      sound = false
    } else {
      list.ok.forEach((item, i) => {
        const read = readFilter(item, [...loc, "values", i], faults)
        if (read === undefined) sound = false
        else values.push(read)
      })
    }
  }
  for (const key of Object.keys(given)) {
    if (key === "type" || key === "values") continue
    note(faults, { loc: [...loc, key], type: "extra_forbidden", msg: "Extra inputs are not permitted" })
    sound = false
  }
  return sound && !isRefusal(type) ? { type: type.ok, values } : undefined
}

const invalid = (detail: string) => ValidationError.field("filters", detail, "invalid")

/**
 * PostHog's refusal of the filters as given (attr `filters`), or the filters as they are to be stored.
 */
export const readCohortFilters = (raw: unknown): JsonRecord | ValidationError => {
  if (!isRecord(raw) || !Object.prototype.hasOwnProperty.call(raw, "properties")) {
    // PostHog's error here is an object inside the field, so the attr names that object's first key.
    return ValidationError.field("filters__detail", "Must contain a 'properties' key with type and values", "invalid")
  }
  const faults: Faults = { first: undefined, missing: undefined }
  let properties: JsonRecord | undefined
  const given = raw["properties"]
  if (isRecord(given)) properties = readGroup(given, ["properties"], faults)
  else note(faults, { loc: ["properties"], type: "model_type", msg: "Input should be a valid dictionary or instance of CohortFilterGroup" })
  for (const key of Object.keys(raw)) {
    if (key !== "properties") note(faults, { loc: [key], type: "extra_forbidden", msg: "Extra inputs are not permitted" })
  }
  if (faults.missing !== undefined) return invalid(faults.missing)
  // A place may name a key the body chose: it is shown cut short, as any input a message echoes.
  if (faults.first !== undefined) return invalid(`Invalid cohort filters at ${faults.first.loc.map(pythonStr).join(".")}: ${faults.first.msg}`)
  return { properties: properties! }
}
