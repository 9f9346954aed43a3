import { Schema } from "effect"
import { MAX_KEY_LENGTH } from "../feature-flags/management/key.ts"
import { EVALUATION_RUNTIMES } from "../feature-flags/model.ts"
import { MAX_GROUP_TYPES } from "../group-types/model.ts"
import { Bool, BoundedList, Choice, IntegerBetween, JsonObject, Text } from "../shared/fields.ts"

/**
 * A flags file: a project's feature flags, cohorts and group types as JSON, to keep in git and to copy
 * between projects and deployments. Records are named by what stays the same from one project to the
 * next (a flag's key, a cohort's name, a group type's name), never by id: the filters keep PostHog's
 * shape, but a `cohort` filter's value is the cohort's name, a `flag` filter's key is the flag's key,
 * and group type indexes are those of the file's own `group_types`, which import maps to the target's.
 */

/** The format's version: a file says which it is, and a reader refuses one it does not know. */
export const FLAGS_FILE_FORMAT = 1

/** Bounds that keep one file's reading and checking in milliseconds; no real project comes near them. */
export const MAX_FILE_FLAGS = 5_000
export const MAX_FILE_COHORTS = 5_000
const MAX_NAME_LENGTH = 400

export const FileGroupType = Schema.Struct({
  group_type_index: IntegerBetween(0, MAX_GROUP_TYPES - 1),
  group_type: Text({ max: MAX_NAME_LENGTH }),
  name_singular: Schema.NullOr(Text({ max: MAX_NAME_LENGTH, allowBlank: true })),
  name_plural: Schema.NullOr(Text({ max: MAX_NAME_LENGTH, allowBlank: true }))
})
export type FileGroupType = typeof FileGroupType.Type

/** A cohort: a dynamic one is its filters; a static one is its name alone (its members are data, not configuration). */
export const FileCohort = Schema.Struct({
  name: Text({ max: MAX_NAME_LENGTH }),
  description: Text({ allowBlank: true }),
  is_static: Bool,
  filters: Schema.NullOr(JsonObject)
})
export type FileCohort = typeof FileCohort.Type

export const FileFlag = Schema.Struct({
  key: Text({ max: MAX_KEY_LENGTH }),
  name: Text({ allowBlank: true }),
  active: Bool,
  filters: JsonObject,
  ensure_experience_continuity: Bool,
  tags: Schema.Array(Text({ allowBlank: true })),
  evaluation_runtime: Choice(EVALUATION_RUNTIMES),
  is_remote_configuration: Bool,
  has_encrypted_payloads: Bool
})
export type FileFlag = typeof FileFlag.Type

export const FlagsFile = Schema.Struct({
  hedgerow_flags_file: Schema.Literal(FLAGS_FILE_FORMAT),
  group_types: BoundedList(FileGroupType, MAX_GROUP_TYPES),
  cohorts: BoundedList(FileCohort, MAX_FILE_COHORTS),
  flags: BoundedList(FileFlag, MAX_FILE_FLAGS)
})
export type FlagsFile = typeof FlagsFile.Type
