import { Schema } from "effect"
import { ProjectId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** A project has at most this many group types, at the indexes 0 to 4, as in PostHog. */
export const MAX_GROUP_TYPES = 5

/** The most characters a group type's name, and each of its display names, may have (PostHog's column). */
export const GROUP_TYPE_NAME_MAX = 400

/**
 * A group type's default columns: a list shows a handful, and every list of the project's group types
 * carries them all. Each column, a property's name, has at most `GROUP_TYPE_NAME_MAX` characters.
 */
export const MAX_DEFAULT_COLUMNS = 100

/** Rows of one `update_metadata`: a console sends one per group type, and a project has at most five. */
export const MAX_METADATA_ROWS = 100

/** A group type as the store holds it: a name the SDKs give a kind of group, at the index flags aggregate by. */
export const GroupType = Schema.Struct({
  project_id: ProjectId,
  group_type_index: Schema.Int,
  group_type: Schema.String,
  name_singular: Schema.NullOr(Schema.String),
  name_plural: Schema.NullOr(Schema.String),
  default_columns: Schema.NullOr(Schema.Array(Schema.String)),
  created_at: Timestamp
})
export type GroupType = typeof GroupType.Type

/**
 * A group type as PostHog answers it, its fields in PostHog's order. `detail_dashboard` is always null:
 * a group's detail dashboard shows analytics, which this service does not keep.
 */
export const GroupTypeView = Schema.Struct({
  group_type: Schema.String,
  group_type_index: Schema.Int,
  name_singular: Schema.NullOr(Schema.String),
  name_plural: Schema.NullOr(Schema.String),
  detail_dashboard: Schema.NullOr(Schema.Int),
  default_columns: Schema.NullOr(Schema.Array(Schema.String)),
  created_at: Timestamp
})
export type GroupTypeView = typeof GroupTypeView.Type

export const toGroupTypeView = (groupType: GroupType): GroupTypeView => ({
  group_type: groupType.group_type,
  group_type_index: groupType.group_type_index,
  name_singular: groupType.name_singular,
  name_plural: groupType.name_plural,
  detail_dashboard: null,
  default_columns: groupType.default_columns,
  created_at: groupType.created_at
})

/** PostHog's `group_type_mapping`: each group type index, as text, to its name. */
export const groupTypeMapping = (groupTypes: ReadonlyArray<GroupType>): Readonly<Record<string, string>> => {
  const mapping: Record<string, string> = {}
  for (const groupType of groupTypes) mapping[String(groupType.group_type_index)] = groupType.group_type
  return mapping
}
