import { Effect, Schema } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { Bool, isRecord, isTruthy, Json, Text } from "../shared/fields.ts"
import { FormBody, formData, INVALID_JSON, UnreadableJson, type UploadedFile } from "../shared/form.ts"
import { saysTrue } from "../shared/python.ts"
import { decodeInput, pythonStr, pythonType } from "../shared/validation.ts"
import { MAX_DISTINCT_ID_LENGTH } from "../shared/distinct-id.ts"

/**
 * Request bodies of cohort create, PATCH and PUT, field by field in PostHog's order: PostHog checks every
 * field and reports the first failure in that order. A body is JSON, or a form (`multipart/form-data`)
 * that may carry a static cohort's `csv` file. Rules that need stored data run in CohortRules, at their
 * field's turn.
 */

/** Each writable field once, with its rule. */
export const cohortFields = {
  name: Schema.NullOr(Text({ max: 400, allowBlank: true })),
  description: Text({ max: 1000, allowBlank: true }),
  groups: Json,
  deleted: Bool,
  filters: Json,
  query: Json,
  is_static: Bool,
  _create_in_folder: Text({ allowBlank: true }),
  /** PostHog's person ids; here, distinct ids. */
  _create_static_person_ids: Schema.Array(Text({ max: MAX_DISTINCT_ID_LENGTH }))
}

type Fields = typeof cohortFields
type Optional = { readonly [F in keyof Fields]: Schema.optionalKey<Fields[F]> }
const optionalFields = Object.fromEntries(
  Object.entries(cohortFields).map(([key, schema]) => [key, Schema.optionalKey(schema)])
) as unknown as Optional

/** POST and PATCH bodies (as JSON) of `/api/projects/{project_id}/cohorts/`: every field optional. */
export const CohortWrite = Schema.Struct(optionalFields)
export type CohortWrite = typeof CohortWrite.Type

/** The same as a form, which may carry a CSV file of distinct ids (`csv`). */
export const CohortWriteForm = Schema.Struct({ ...optionalFields, csv: Schema.optionalKey(Schema.Unknown) })

const JSON_FIELDS = ["groups", "filters", "query"] as const
const LIST_FIELDS = ["_create_static_person_ids"] as const

/** A body's data, and the CSV file it carried when it was a form. */
export interface CohortBody {
  readonly data: unknown
  readonly csv: UploadedFile | undefined
}

export const cohortBodyOf = (body: unknown): CohortBody =>
  body instanceof FormBody
    ? { data: formData(body, { json: JSON_FIELDS, lists: LIST_FIELDS }), csv: body.files.get("csv") }
    : { data: body, csv: undefined }

/** One field of the body, decoded by its rule: undefined when not given. */
export const fieldOf = <K extends keyof Fields>(name: K) => {
  const decode = decodeInput(Schema.Struct({ [name]: Schema.optionalKey(cohortFields[name]) } as { [F in K]: Schema.optionalKey<Fields[F]> }))
  return (data: unknown): Effect.Effect<Fields[K]["Type"] | undefined, ValidationError> =>
    Effect.flatMap(decode(data), (decoded) => {
      const value = (decoded as Record<string, unknown>)[name]
      return value instanceof UnreadableJson
        ? Effect.fail(ValidationError.field(name, INVALID_JSON, "invalid"))
        : Effect.succeed(value as Fields[K]["Type"] | undefined)
    })
}

/** Whether the body says it is static, read from the raw value as PostHog reads a yes or a no. */
export const saysStatic = (data: unknown): boolean | undefined => {
  if (!isRecord(data) || !Object.prototype.hasOwnProperty.call(data, "is_static")) return undefined
  const value = data["is_static"]
  return typeof value === "boolean" ? value : saysTrue(pythonStr(value))
}

/**
 * Legacy groups: a list of objects, each with properties, an action or an event, as PostHog requires
 * them (PostHog answers any other group with a server error).
 */
export const groupsError = (groups: unknown): ValidationError | undefined => {
  if (groups === null) return ValidationError.field("groups", "This field may not be null.", "null")
  if (!Array.isArray(groups)) {
    return ValidationError.field("groups", `Expected a list of items but got type "${pythonType(groups)}".`, "not_a_list")
  }
  const bad = groups.some((group) =>
    !isRecord(group) || !(isTruthy(group["properties"]) || isTruthy(group["action_id"]) || isTruthy(group["event_id"])))
  return bad ? ValidationError.field("groups", "Cohort group needs properties or action_id or event_id", "invalid") : undefined
}

/** A query as PostHog takes one: nothing, or an actors or HogQL query, kept as given. */
export const queryOf = (query: unknown): ValidationError | unknown => {
  if (!isTruthy(query)) return null
  if (!isRecord(query)) return ValidationError.field("query", "Query must be a dictionary.", "invalid")
  const kind = query["kind"]
  if (kind === "ActorsQuery" || kind === "HogQLQuery") return query
  return ValidationError.field("query", `Query must be an ActorsQuery or HogQLQuery. Got: ${pythonStr(kind)}`, "invalid")
}
