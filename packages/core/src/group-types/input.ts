import { Schema } from "effect"
import { BoundedList, Integer, maxLength, Text } from "../shared/fields.ts"
import { GROUP_TYPE_NAME_MAX, MAX_DEFAULT_COLUMNS, MAX_METADATA_ROWS } from "./model.ts"

/** A display name: text of at most 400 characters, which may be blank or null. */
const DisplayName = Schema.NullOr(Text({ max: GROUP_TYPE_NAME_MAX, allowBlank: true }))

/** The columns a group type's list shows by default (each a property's name); null for none chosen. */
const DefaultColumns = Schema.NullOr(BoundedList(Schema.String.check(maxLength(GROUP_TYPE_NAME_MAX)), MAX_DEFAULT_COLUMNS))

/** Body of `POST …/groups_types/`: the name SDKs give the group type, which takes the lowest free index. */
export const GroupTypeCreate = Schema.Struct({
  group_type: Text({ max: GROUP_TYPE_NAME_MAX })
})
export type GroupTypeCreate = typeof GroupTypeCreate.Type

/** Which group type a row of `update_metadata`, or a `set_default_columns` body, is about. */
export const GroupTypeChoice = Schema.Struct({
  group_type_index: Integer
})

/**
 * What a row of `update_metadata` may change besides naming its group type. `default_columns` is read
 * and checked, but only the display names are written.
 */
export const GroupTypeNames = Schema.Struct({
  name_singular: Schema.optionalKey(DisplayName),
  name_plural: Schema.optionalKey(DisplayName),
  default_columns: Schema.optionalKey(DefaultColumns)
})

/** What `set_default_columns` sets besides naming its group type. */
export const GroupTypeColumns = Schema.Struct({
  default_columns: DefaultColumns
})

/** A row of `PATCH …/groups_types/update_metadata/`, whose body is a list of them. */
export const GroupTypeMetadataRow = Schema.Struct({ ...GroupTypeChoice.fields, ...GroupTypeNames.fields })
export type GroupTypeMetadataRow = typeof GroupTypeMetadataRow.Type

/** The body of `update_metadata`: its rows, each read on its turn. */
export const GroupTypeMetadataRows = BoundedList(Schema.Unknown, MAX_METADATA_ROWS)

/** Body of `PUT …/groups_types/set_default_columns/`. */
export const GroupTypeDefaultColumns = Schema.Struct({ ...GroupTypeChoice.fields, ...GroupTypeColumns.fields })
export type GroupTypeDefaultColumns = typeof GroupTypeDefaultColumns.Type
