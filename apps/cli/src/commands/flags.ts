import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { type ApiClient, checkPayload, remoteFlags, withApi } from "../remote.ts"
import { commaList, extraData, given, jsonObjectData } from "../request-body.ts"
import { activity } from "./flags-activity.ts"
import { definitions } from "./flags-definitions.ts"
import { evaluate } from "./flags-evaluate.ts"
import { roleAccess } from "./flags-role-access.ts"
import { usage } from "./flags-usage.ts"
import { flagIdArgument, flagRow, flagSummary, projectFlag } from "./flags-shared.ts"

const list = Command.make(
  "list",
  {
    ...remoteFlags,
    project: projectFlag,
    search: Flag.String("search").pipe(Flag.withDescription("Case-insensitive part of the key or name"), Flag.optional),
    type: Flag.Literals("type", ["boolean", "multivariant", "experiment"]).pipe(Flag.optional),
    active: Flag.Literals("active", ["true", "false", "STALE"]).pipe(
      Flag.withDescription("Enabled flags, disabled ones, or STALE: enabled, fully rolled out and over 30 days old"),
      Flag.optional
    ),
    createdBy: Flag.Int("created-by").pipe(Flag.withDescription("Id of the user who created the flags"), Flag.optional),
    tags: Flag.String("tags").pipe(Flag.withDescription("Comma-separated tag names; a flag with any of them matches"), Flag.optional),
    order: Flag.String("order").pipe(Flag.withDescription("A field to sort by, `-` first for descending (default -created_at)"), Flag.optional),
    ...pageFlags,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) => {
      const filters = {
        ...given({ search: options.search, type: options.type, active: options.active, order: options.order }),
        ...(Option.isSome(options.createdBy) ? { created_by_id: String(options.createdBy.value) } : {}),
        ...(Option.isSome(options.tags) ? { tags: JSON.stringify(commaList(options.tags.value)) } : {})
      }
      return listCommand(
        options,
        ["id", "key", "name", "active", "status", "rollout", "created_by"],
        (page) => client.featureFlags.list({ params: { project_id: options.project }, query: { ...filters, ...page } }),
        flagRow
      )
    })
).pipe(Command.withDescription("List a project's feature flags (soft-deleted ones are hidden)"))

const get = Command.make(
  "get",
  { ...remoteFlags, id: flagIdArgument, project: projectFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.featureFlags.retrieve({ params: { project_id: options.project, id: options.id } }).pipe(
        Effect.flatMap(emit(options.json, flagSummary))
      ))
).pipe(Command.withDescription("Show a feature flag (soft-deleted ones too)"))

/** Flags shared by create and update; `--data` holds any other writable field, and the flags win. */
const bodyFlags = {
  name: Flag.String("name").pipe(Flag.withDescription("Description of the flag (PostHog calls it name)"), Flag.optional),
  filters: Flag.String("filters").pipe(
    Flag.withDescription("Release conditions as a JSON object, inline or @file.json: {\"groups\": [...], \"multivariate\": ..., \"payloads\": ...}"),
    Flag.optional
  ),
  active: Flag.Literals("active", ["true", "false"]).pipe(Flag.withDescription("Enable or disable the flag"), Flag.optional),
  tags: Flag.String("tags").pipe(Flag.withDescription("Comma-separated tag names (replaces the flag's tags)"), Flag.optional),
  data: Flag.String("data").pipe(Flag.withDescription("Other writable fields as a JSON object, inline or @file.json"), Flag.optional)
}

type BodyOptions = { readonly [K in keyof typeof bodyFlags]: Option.Option<string> }

const bodyOf = (options: BodyOptions) =>
  Effect.gen(function*() {
    const extra = yield* extraData(options.data)
    const filters = Option.isSome(options.filters) ? yield* jsonObjectData(options.filters.value, "--filters") : undefined
    return {
      ...extra,
      ...given({ name: options.name }),
      ...(filters === undefined ? {} : { filters }),
      ...(Option.isSome(options.active) ? { active: options.active.value === "true" } : {}),
      ...(Option.isSome(options.tags) ? { tags: commaList(options.tags.value) } : {})
    }
  })

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    flagKey: Argument.String("flag-key").pipe(Argument.withDescription("The new flag's key: letters, digits, - and _")),
    project: projectFlag,
    ...bodyFlags,
    noDashboard: Flag.Boolean("no-usage-dashboard").pipe(
      Flag.withDescription("Do not create the flag's usage dashboard"),
      Flag.withDefault(false)
    ),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const body = {
          ...(yield* bodyOf(options)),
          key: options.flagKey,
          ...(options.noDashboard ? { _should_create_usage_dashboard: false } : {})
        }
        const payload = yield* checkPayload((core) => core.FlagCreateBody, body)
        const flag = yield* client.featureFlags.create({ params: { project_id: options.project }, payload })
        yield* emit(options.json, flagSummary)(flag)
      }))
).pipe(Command.withDescription("Create a feature flag"))

/** PATCH one flag with `body`, checked first with core's own schema. */
const patch = (client: ApiClient, options: { readonly project: string; readonly id: string; readonly json: boolean }, body: object) =>
  checkPayload((core) => core.FlagUpdateBody, body).pipe(
    Effect.flatMap((payload) => client.featureFlags.update({ params: { project_id: options.project, id: options.id }, payload })),
    Effect.flatMap(emit(options.json, flagSummary))
  )

const update = Command.make(
  "update",
  {
    ...remoteFlags,
    id: flagIdArgument,
    project: projectFlag,
    flagKey: Flag.String("flag-key").pipe(Flag.withDescription("A new key for the flag (--key is the API key)"), Flag.optional),
    ...bodyFlags,
    version: Flag.Int("version").pipe(
      Flag.withDescription("The version you last read: refused (409) if someone changed the flag since"),
      Flag.optional
    ),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const body = { ...(yield* bodyOf(options)), ...given({ key: options.flagKey, version: options.version }) }
        return yield* patch(client, options, body)
      }))
).pipe(Command.withDescription("Change some fields of a feature flag"))

const remove = Command.make(
  "delete",
  { ...remoteFlags, id: flagIdArgument, project: projectFlag, json: jsonFlag },
  (options) => withApi(options, (client) => patch(client, options, { deleted: true }))
).pipe(Command.withDescription("Soft-delete a feature flag (PATCH deleted: true); `restore` undoes it"))

const restore = Command.make(
  "restore",
  { ...remoteFlags, id: flagIdArgument, project: projectFlag, json: jsonFlag },
  (options) => withApi(options, (client) => patch(client, options, { deleted: false }))
).pipe(Command.withDescription("Restore a soft-deleted feature flag (refused if its key is taken meanwhile)"))

const status = Command.make(
  "status",
  { ...remoteFlags, id: flagIdArgument, project: projectFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.featureFlags.status({ params: { project_id: options.project, id: options.id } }).pipe(
        Effect.flatMap(emit(options.json, (answer) => details(answer)))
      ))
).pipe(Command.withDescription("Whether a flag is active, inactive, stale or deleted, and why"))

export const flags = Command.make("flags").pipe(
  Command.withDescription("Feature flags of a project, through the API (--url, --key): manage them, evaluate one, read the definitions"),
  Command.withSubcommands([list, get, create, update, remove, restore, status, activity, roleAccess, evaluate, definitions, usage])
)
