import type { GroupTypeView } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag, table, UsageError } from "../output.ts"
import { checkPayload, remoteFlags, withApi } from "../remote.ts"
import { commaList, given } from "../request-body.ts"
import { projectFlag } from "./flags-shared.ts"

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

const summary = (groupType: GroupTypeView) => details(row(groupType))

const list = Command.make(
  "list",
  { ...remoteFlags, project: projectFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.groupTypes.list({ params: { project_id: options.project } }).pipe(
        Effect.flatMap(emit(options.json, (groupTypes) => table(groupTypes.map(row), COLUMNS)))
      ))
).pipe(Command.withDescription("List the project's group types by index (the index a group flag aggregates by)"))

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    name: Argument.String("name").pipe(Argument.withDescription("The group type's name, as SDKs name the group (`company` in groups: { company: ... })")),
    project: projectFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.GroupTypeCreate, { group_type: options.name })
        const groupType = yield* client.groupTypes.create({ params: { project_id: options.project }, payload })
        yield* emit(options.json, summary)(groupType)
      }))
).pipe(Command.withDescription("Add a group type by name at the lowest free index (at most 5), so group flags can target it before any event names it"))

const update = Command.make(
  "update",
  {
    ...remoteFlags,
    index: Argument.Int("index").pipe(Argument.withDescription("The group type's index, 0-4")),
    singular: Flag.String("singular").pipe(Flag.withDescription("Its display name for one group"), Flag.optional),
    plural: Flag.String("plural").pipe(Flag.withDescription("Its display name for several groups"), Flag.optional),
    columns: Flag.String("columns").pipe(
      Flag.withDescription("The columns its list shows by default, comma-separated (\"\" for none chosen)"),
      Flag.optional
    ),
    project: projectFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const params = { project_id: options.project }
        const names = given({ name_singular: options.singular, name_plural: options.plural })
        if (Object.keys(names).length === 0 && Option.isNone(options.columns)) {
          return yield* new UsageError({ message: "nothing to change: give --singular, --plural or --columns" })
        }
        // Both bodies are checked before either is sent, so a bad one changes nothing.
        const namesRow = Object.keys(names).length === 0
          ? undefined
          : yield* checkPayload((core) => core.GroupTypeMetadataRow, { group_type_index: options.index, ...names })
        const columns = Option.map(options.columns, commaList)
        const columnsPayload = Option.isNone(columns)
          ? undefined
          : yield* checkPayload((core) => core.GroupTypeDefaultColumns, {
            group_type_index: options.index,
            default_columns: columns.value.length === 0 ? null : columns.value
          })
        let groupType: GroupTypeView | undefined
        if (namesRow !== undefined) {
          const updated = yield* client.groupTypes.updateMetadata({ params, payload: [namesRow] })
          groupType = updated.find((found) => found.group_type_index === options.index)
        }
        if (columnsPayload !== undefined) groupType = yield* client.groupTypes.setDefaultColumns({ params, payload: columnsPayload })
        yield* emit(options.json, summary)(groupType!)
      }))
).pipe(Command.withDescription("Set a group type's display names (update_metadata) and default columns (set_default_columns)"))

const remove = Command.make(
  "delete",
  {
    ...remoteFlags,
    index: Argument.String("index").pipe(Argument.withDescription("The group type's index, 0-4")),
    project: projectFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      client.groupTypes.destroy({ params: { project_id: options.project, group_type_index: options.index } }).pipe(
        // 204 answers nothing; the JSON echoes what was done so scripts still get an object.
        Effect.andThen(options.json
          ? Console.log(JSON.stringify({ group_type_index: Number(options.index), deleted: true }, null, 2))
          : Console.log(`Deleted group type ${options.index}; flags on that index evaluate off until a group type takes it again.`))
      ))
).pipe(Command.withDescription("Delete a group type: its index is free for the next name; flags on it are kept and evaluate off meanwhile"))

export const groupTypes = Command.make("group-types").pipe(
  Command.withDescription("A project's group types: the names SDKs give groups (groups: { company: ... }), at indexes 0-4"),
  Command.withSubcommands([list, create, update, remove])
)
