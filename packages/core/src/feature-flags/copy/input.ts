import { Schema } from "effect"
import { Bool, BoundedList, Integer, rule, Text } from "../../shared/fields.ts"
import { FlagView } from "../model.ts"

/** PostHog copies a flag to at most 50 projects at once. */
const MAX_COPY_TARGETS = 50

const atLeastOne = rule<ReadonlyArray<unknown>>("min_length", (list) =>
  list.length === 0 ? "Ensure this field has at least 1 elements." : undefined)

/**
 * `POST /api/organizations/{organization_id}/feature_flags/copy_flags/`, field by field in PostHog's
 * order. `copy_schedule` is read and has nothing to copy: this service keeps no scheduled changes.
 * `copy_dependencies` is refused when true (see FlagCopyService), so it is read too.
 */
export const CopyFlagsBody = Schema.Struct({
  feature_flag_key: Text(),
  from_project: Integer,
  target_project_ids: BoundedList(Integer, MAX_COPY_TARGETS).check(atLeastOne),
  copy_schedule: Schema.optionalKey(Bool),
  disable_copied_flag: Schema.optionalKey(Bool),
  copy_dependencies: Schema.optionalKey(Bool)
})
export type CopyFlagsBody = typeof CopyFlagsBody.Type

/** A target the flag was not copied to, and why. */
export const CopyFailure = Schema.Struct({
  project_id: Schema.Number,
  error_message: Schema.String
})
export type CopyFailure = typeof CopyFailure.Type

/** The answer: the flag as written in each target it reached, and the targets it did not. */
export const CopyFlagsResult = Schema.Struct({
  success: Schema.Array(FlagView),
  failed: Schema.Array(CopyFailure)
})
export type CopyFlagsResult = typeof CopyFlagsResult.Type
