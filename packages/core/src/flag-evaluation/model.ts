import { Schema } from "effect"
import { EvaluationRuntime } from "../feature-flags/model.ts"
import { JsonObject } from "../shared/fields.ts"
import { FeatureFlagId, ProjectId } from "../shared/ids.ts"

/** A flag as the definitions for local evaluation send it: the fields PostHog sends there. */
export const DefinitionFlag = Schema.Struct({
  id: FeatureFlagId,
  team_id: ProjectId,
  name: Schema.String,
  key: Schema.String,
  /** As rendered, each `flag` property naming its flag by key and carrying its `dependency_chain`. */
  filters: JsonObject,
  deleted: Schema.Boolean,
  active: Schema.Boolean,
  ensure_experience_continuity: Schema.Boolean,
  version: Schema.Int,
  evaluation_runtime: EvaluationRuntime,
  bucketing_identifier: Schema.NullOr(Schema.String)
})
export type DefinitionFlag = typeof DefinitionFlag.Type

/**
 * What the SDKs poll for local evaluation: the project's flags, the group type names their aggregation
 * indexes stand for, and the definitions of the dynamic cohorts the flags name.
 */
export const LocalEvaluationDefinitions = Schema.Struct({
  flags: Schema.Array(DefinitionFlag),
  group_type_mapping: Schema.Record(Schema.String, Schema.String),
  cohorts: Schema.Record(Schema.String, JsonObject)
})
export type LocalEvaluationDefinitions = typeof LocalEvaluationDefinitions.Type

/** The definitions with the validator that changes whenever they do, and their JSON, made once. */
export interface Definitions {
  readonly body: LocalEvaluationDefinitions
  /** The body as JSON text, as it is sent. */
  readonly json: string
  /** A weak ETag (`W/"…"`) of the body: any change of a flag or cohort in it changes the text, so the tag. */
  readonly etag: string
}

/** Why a flag evaluated as it did: PostHog's reason code, the condition it names, and its words. */
export const FlagReason = Schema.Struct({
  code: Schema.String,
  condition_index: Schema.NullOr(Schema.Int),
  description: Schema.String
})

/** One flag of a `/flags?v=2` answer. */
export const FlagDetails = Schema.Struct({
  key: Schema.String,
  enabled: Schema.Boolean,
  variant: Schema.NullOr(Schema.String),
  reason: FlagReason,
  metadata: Schema.Struct({
    id: Schema.Int,
    version: Schema.Int,
    description: Schema.Null,
    /** The payload as stored: the JSON text PostHog keeps, or null. */
    payload: Schema.Unknown
  })
})

export type FlagDetails = typeof FlagDetails.Type

/**
 * `{id}/test_evaluation/`: the flag evaluated for one person as `/flags?v=2` would answer it, `flag` null
 * when `/flags` would leave it out (inactive, deleted, or in a dependency cycle). Nothing of it counts as
 * a call of the flag: it is a person trying the flag out, not an application using it.
 */
export const FlagTestEvaluation = Schema.Struct({
  flag: Schema.NullOr(FlagDetails),
  errorsWhileComputingFlags: Schema.Boolean
})
export type FlagTestEvaluation = typeof FlagTestEvaluation.Type

/** The person a test evaluation is for, as `/flags` reads one (the same names, aliases and bounds). */
export const FlagTestEvaluationBody = Schema.Struct({
  distinct_id: Schema.Union([Schema.String, Schema.Number]),
  person_properties: Schema.optionalKey(JsonObject),
  groups: Schema.optionalKey(JsonObject),
  group_properties: Schema.optionalKey(Schema.Record(Schema.String, JsonObject))
})

/** A flag's value: its variant, or whether it is on. */
const FlagValue = Schema.Union([Schema.Boolean, Schema.String])

/** `/flags?v=2` (and `/decide?v=4`): every flag evaluated, by key, with why and its payload. */
export const FlagsV2Response = Schema.Struct({
  errorsWhileComputingFlags: Schema.Boolean,
  flags: Schema.Record(Schema.String, FlagDetails),
  requestId: Schema.String,
  /** When the flags were evaluated, in milliseconds since the epoch. */
  evaluatedAt: Schema.Number
})
export type FlagsV2Response = typeof FlagsV2Response.Type

/** `/flags` without `v` or with `v=1` (and `/decide?v=3`): values by key, and the payloads there are. */
export const LegacyFlagsResponse = Schema.Struct({
  errorsWhileComputingFlags: Schema.Boolean,
  featureFlags: Schema.Record(Schema.String, FlagValue),
  featureFlagPayloads: Schema.Record(Schema.String, Schema.Unknown),
  requestId: Schema.String,
  evaluatedAt: Schema.Number
})
export type LegacyFlagsResponse = typeof LegacyFlagsResponse.Type

/** `/decide` without `v` or with `v=1`: the keys of the flags that are on. */
export const DecideV1Response = Schema.Struct({
  featureFlags: Schema.Array(Schema.String),
  requestId: Schema.String,
  evaluatedAt: Schema.Number
})
export type DecideV1Response = typeof DecideV1Response.Type

/** `/decide?v=2`: the values of the flags that are on. */
export const DecideV2Response = Schema.Struct({
  featureFlags: Schema.Record(Schema.String, FlagValue),
  requestId: Schema.String,
  evaluatedAt: Schema.Number
})
export type DecideV2Response = typeof DecideV2Response.Type

/** What `/flags` and `/decide` answer, by the version asked. */
export type FlagsResponse = FlagsV2Response | LegacyFlagsResponse | DecideV1Response | DecideV2Response

/** The body PostHog's SDKs send to `/flags`, as documented; the service reads it leniently (see request.ts). */
export const FlagsRequestBody = Schema.Struct({
  token: Schema.optionalKey(Schema.String),
  api_key: Schema.optionalKey(Schema.String),
  $token: Schema.optionalKey(Schema.String),
  distinct_id: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  groups: Schema.optionalKey(JsonObject),
  person_properties: Schema.optionalKey(JsonObject),
  group_properties: Schema.optionalKey(Schema.Record(Schema.String, JsonObject)),
  flag_keys_to_evaluate: Schema.optionalKey(Schema.Array(Schema.String)),
  flag_keys: Schema.optionalKey(Schema.Array(Schema.String)),
  $anon_distinct_id: Schema.optionalKey(Schema.String),
  $device_id: Schema.optionalKey(Schema.String),
  evaluation_runtime: Schema.optionalKey(Schema.String),
  disable_flags: Schema.optionalKey(Schema.Boolean)
})

/** One flag's value for a person and why, as `evaluation_reasons` answers it. */
export const FlagEvaluationReason = Schema.Struct({
  value: Schema.Union([Schema.Boolean, Schema.String]),
  evaluation: Schema.Struct({
    /** PostHog's reason code, or `disabled` for an inactive flag. */
    reason: Schema.String,
    condition_index: Schema.NullOr(Schema.Int)
  })
})

/** `evaluation_reasons`: every flag of the project that is not deleted, by key. */
export const EvaluationReasons = Schema.Record(Schema.String, FlagEvaluationReason)
export type EvaluationReasons = typeof EvaluationReasons.Type

/** `evaluation_reasons`' query: whom to evaluate for, and their groups as a JSON object (type name to key). */
export interface EvaluationReasonsQuery {
  readonly distinct_id?: string | undefined
  readonly groups?: string | undefined
}
