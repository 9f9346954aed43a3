import { Schema } from "effect"
import { EvaluationRuntime } from "../feature-flags/model.ts"
import { JsonObject } from "../shared/fields.ts"
import { FeatureFlagId, ProjectId } from "../shared/ids.ts"

/** A flag as the definitions for local evaluation send it: PostHog's MinimalFeatureFlagSerializer fields. */
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
