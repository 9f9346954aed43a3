import type { GroupTypeView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, table, UsageError } from "../output.ts"
import { checkPayload } from "../remote.ts"
import { commaList, given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inProject } from "../scope.ts"

const COLUMNS = ["index", "group_type", "name_singular", "name_plural", "default_columns", "created_at"]

/** A group type as one row of the table: its index first, as flags name it. */
const row = (groupType: GroupTypeView) => ({
  index: groupType.group_type_index,
  group_type: groupType.group_type,
  name_singular: groupType.name_singular,
  name_plural: groupType.name_plural,
  default_columns: groupType.default_columns === null ? null : groupType.default_columns.join(","),
  created_at: groupType.created_at
})

const indexDescription = "The group type's index, 0-4"

/** A project's group types, named by their index. */
const groupType = resource({
  noun: "group type",
  scope: inProject,
  id: Argument.String("index").pipe(Argument.withDescription(indexDescription)),
  show: (found: GroupTypeView) => details(row(found))
})

// The API answers every group type at once, without pages.
const list = groupType.onAll("list", {
  description: "List the project's group types by index (the index a group flag aggregates by)",
  run: ({ client, at, json }) =>
    client.groupTypes.list({ params: at }).pipe(Effect.flatMap(emit(json, (groupTypes) => table(groupTypes.map(row), COLUMNS))))
})

const create = groupType.create({
  description: "Add a group type by name at the lowest free index (at most 5), so group flags can target it before any event names it",
  input: {
    name: Argument.String("name").pipe(Argument.withDescription("The group type's name, as SDKs name the group (`company` in groups: { company: ... })"))
  },
  body: (values) => Effect.succeed({ group_type: values.name }),
  schema: (core) => core.GroupTypeCreate,
  send: ({ client, at }, payload) => client.groupTypes.create({ params: at, payload })
})

// Two endpoints, one for the names and one for the columns, and the index is a number here.
const update = groupType.onAll("update", {
  description: "Set a group type's display names (update_metadata) and default columns (set_default_columns)",
  input: {
    index: Argument.Int("index").pipe(Argument.withDescription(indexDescription)),
    singular: Flag.String("singular").pipe(Flag.withDescription("Its display name for one group"), Flag.optional),
    plural: Flag.String("plural").pipe(Flag.withDescription("Its display name for several groups"), Flag.optional),
    columns: Flag.String("columns").pipe(
      Flag.withDescription("The columns its list shows by default, comma-separated (\"\" for none chosen)"),
      Flag.optional
    )
  },
  run: ({ client, at: params, values, json }) =>
    Effect.gen(function*() {
      const names = given({ name_singular: values.singular, name_plural: values.plural })
      if (Object.keys(names).length === 0 && Option.isNone(values.columns)) {
        return yield* new UsageError({ message: "nothing to change: give --singular, --plural or --columns" })
      }
      // Both bodies are checked before either is sent, so a bad one changes nothing.
      const namesRow = Object.keys(names).length === 0
        ? undefined
        : yield* checkPayload((core) => core.GroupTypeMetadataRow, { group_type_index: values.index, ...names })
      const columns = Option.map(values.columns, commaList)
      const columnsPayload = Option.isNone(columns)
        ? undefined
        : yield* checkPayload((core) => core.GroupTypeDefaultColumns, {
          group_type_index: values.index,
          default_columns: columns.value.length === 0 ? null : columns.value
        })
      let updated: GroupTypeView | undefined
      if (namesRow !== undefined) {
        const all = yield* client.groupTypes.updateMetadata({ params, payload: [namesRow] })
        updated = all.find((found) => found.group_type_index === values.index)
      }
      if (columnsPayload !== undefined) updated = yield* client.groupTypes.setDefaultColumns({ params, payload: columnsPayload })
      yield* emit(json, groupType.show)(updated!)
    })
})

const remove = groupType.onItem("delete", {
  description: "Delete a group type: its index is free for the next name; flags on it are kept and evaluate off meanwhile",
  run: ({ client, at, id, json }) =>
    client.groupTypes.destroy({ params: { ...at, group_type_index: id } }).pipe(
      // The API answers 204 with no body; the JSON says what was done so scripts still get an object.
      Effect.andThen(
        emit(json, () => `Deleted group type ${id}; flags on that index evaluate off until a group type takes it again.`)({
          group_type_index: Number(id),
          deleted: true
        })
      )
    )
})

export const groupTypes = Command.make("group-types").pipe(
  Command.withDescription("A project's group types: the names SDKs give groups (groups: { company: ... }), at indexes 0-4"),
  Command.withSubcommands([list, create, update, remove])
)
