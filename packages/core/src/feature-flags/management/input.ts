import { Schema, SchemaTransformation } from "effect"
import { Bool, Choice, Integer, Json, JsonObject, rule, Text } from "../../shared/fields.ts"
import { pythonType } from "../../shared/validation.ts"
import { CREATION_CONTEXTS, EVALUATION_RUNTIMES } from "../model.ts"
import { MAX_KEY_LENGTH } from "./key.ts"

/**
 * The bodies of a flag's create and PATCH, field by field in PostHog's order: it checks every field in
 * turn and reports the first that fails, so the order is part of the contract. The rules that need
 * stored data (the key's uniqueness, the filters, the dashboards) run in FlagRules, in the same order.
 */

const isPrimaryKey = (value: unknown) =>
  (typeof value === "number" && Number.isInteger(value)) || (typeof value === "string" && /^\s*\d+\s*$/.test(value))

/**
 * A list of ids of other records, digit strings accepted as PostHog accepts them. A bad item fails the
 * field as a whole, so the attr carries no index.
 */
const PrimaryKeyList = Schema.Array(Json).check(
  rule<ReadonlyArray<unknown>>("incorrect_type", (items) => {
    const bad = items.find((item) => !isPrimaryKey(item))
    return bad === undefined ? undefined : `Incorrect type. Expected pk value, received ${pythonType(bad)}.`
  })
).pipe(Schema.decodeTo(
  Schema.Array(Schema.Number),
  SchemaTransformation.transform<ReadonlyArray<number>, ReadonlyArray<unknown>>({
    decode: (items) => items.map((item) => Number(item)),
    encode: (ids) => ids
  })
))

const NullableBool = Schema.NullOr(Bool)

/**
 * PostHog stores a tag's name in 255 characters, and a longer one fails in its database. Here it is
 * refused as a long item of a list is, before it reaches the tags index, whose entries are bounded.
 */
export const MAX_TAG_LENGTH = 255

/** Each writable field once, with its rule and PostHog's message. */
export const flagFields = {
  name: Text({ allowBlank: true }),
  key: Text({ max: MAX_KEY_LENGTH }),
  filters: JsonObject,
  deleted: Bool,
  active: Bool,
  version: Integer,
  ensure_experience_continuity: NullableBool,
  rollback_conditions: Json,
  performed_rollback: NullableBool,
  tags: Schema.Array(Text({ max: MAX_TAG_LENGTH, allowBlank: true })),
  analytics_dashboards: PrimaryKeyList,
  has_enriched_analytics: NullableBool,
  creation_context: Choice(CREATION_CONTEXTS),
  is_remote_configuration: NullableBool,
  has_encrypted_payloads: NullableBool,
  evaluation_runtime: Choice(EVALUATION_RUNTIMES),
  _create_in_folder: Text({ allowBlank: true }),
  _should_create_usage_dashboard: Bool
}

type Fields = typeof flagFields
type Optional<K extends keyof Fields> = { readonly [F in K]: Schema.optionalKey<Fields[F]> }
const optional = <K extends keyof Fields>(...keys: ReadonlyArray<K>): Optional<K> =>
  Object.fromEntries(keys.map((key) => [key, Schema.optionalKey(flagFields[key])])) as unknown as Optional<K>

/** The fields checked after `filters`, in order, up to the one that needs stored data, and those after it. */
const UP_TO_DASHBOARDS = [
  "deleted", "active", "version", "ensure_experience_continuity", "rollback_conditions", "performed_rollback",
  "tags", "analytics_dashboards"
] as const
const AFTER_DASHBOARDS = [
  "has_enriched_analytics", "creation_context", "is_remote_configuration", "has_encrypted_payloads",
  "evaluation_runtime", "_create_in_folder", "_should_create_usage_dashboard"
] as const
export const LATER_FIELDS = [...UP_TO_DASHBOARDS, ...AFTER_DASHBOARDS] as const

/** POST /api/projects/{project_id}/feature_flags/. Unknown and read-only keys are ignored. */
export const FlagCreateBody = Schema.Struct({
  ...optional("name"),
  key: flagFields.key,
  ...optional("filters"),
  ...optional(...LATER_FIELDS)
})
export type FlagCreateBody = typeof FlagCreateBody.Type

/** PATCH /api/projects/{project_id}/feature_flags/{id}/: every field optional. */
export const FlagUpdateBody = Schema.Struct({
  ...optional("name", "key", "filters"),
  ...optional(...LATER_FIELDS)
})
export type FlagUpdateBody = typeof FlagUpdateBody.Type

/** The pieces FlagRules decodes one after another, so that the first failing field is the one reported. */
export const CreateHead = Schema.Struct({ ...optional("name"), key: flagFields.key })
export const UpdateHead = Schema.Struct(optional("name", "key"))
export const FiltersPart = Schema.Struct(optional("filters"))
export const MiddlePart = Schema.Struct(optional(...UP_TO_DASHBOARDS))
export const TailPart = Schema.Struct(optional(...AFTER_DASHBOARDS))
