import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit } from "../output.ts"
import { commaList, extraData, given, jsonObjectData } from "../request-body.ts"
import type { ItemCall } from "../resource.ts"
import type { Core } from "../packages.ts"
import { activity } from "./flags-activity.ts"
import { copy } from "./flags-copy.ts"
import { definitions } from "./flags-definitions.ts"
import { evaluate } from "./flags-evaluate.ts"
import { flagFileCommands } from "./flags-files.ts"
import { flag } from "./flags-resource.ts"
import { roleAccess } from "./flags-role-access.ts"
import { usage } from "./flags-usage.ts"

/** A flag as one row of the list table. */
const row = (found: {
  readonly id: number
  readonly key: string
  readonly name: string
  readonly active: boolean
  readonly status: string
  readonly rollout_percentage: number | null
  readonly created_by: { readonly email?: string } | null
}) => ({
  id: found.id,
  key: found.key,
  name: found.name,
  active: found.active,
  status: found.status,
  rollout: found.rollout_percentage,
  created_by: found.created_by?.email ?? null
})

const list = flag.list({
  description: "List a project's feature flags (soft-deleted ones are hidden)",
  flags: {
    search: Flag.String("search").pipe(Flag.withDescription("Case-insensitive part of the key or name"), Flag.optional),
    type: Flag.Literals("type", ["boolean", "multivariant", "experiment"]).pipe(Flag.optional),
    active: Flag.Literals("active", ["true", "false", "STALE"]).pipe(
      Flag.withDescription("Enabled flags, disabled ones, or STALE: enabled, fully rolled out and over 30 days old"),
      Flag.optional
    ),
    createdBy: Flag.Int("created-by").pipe(Flag.withDescription("Id of the user who created the flags"), Flag.optional),
    tags: Flag.String("tags").pipe(Flag.withDescription("Comma-separated tag names; a flag with any of them matches"), Flag.optional),
    order: Flag.String("order").pipe(Flag.withDescription("A field to sort by, `-` first for descending (default -created_at)"), Flag.optional)
  },
  columns: ["id", "key", "name", "active", "status", "rollout", "created_by"],
  row,
  fetch: ({ client, at, values }, page) =>
    client.featureFlags.list({
      params: at,
      query: {
        ...given({ search: values.search, type: values.type, active: values.active, order: values.order }),
        ...(Option.isSome(values.createdBy) ? { created_by_id: String(values.createdBy.value) } : {}),
        ...(Option.isSome(values.tags) ? { tags: JSON.stringify(commaList(values.tags.value)) } : {}),
        ...page
      }
    })
})

const get = flag.get({
  description: "Show a feature flag (soft-deleted ones too)",
  fetch: ({ client, at, id }) => client.featureFlags.retrieve({ params: { ...at, id } })
})

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

const bodyOf = (values: { readonly [K in keyof typeof bodyFlags]: Option.Option<string> }) =>
  Effect.gen(function*() {
    const extra = yield* extraData(values.data)
    const filters = Option.isSome(values.filters) ? yield* jsonObjectData(values.filters.value, "--filters") : undefined
    return {
      ...extra,
      ...given({ name: values.name }),
      ...(filters === undefined ? {} : { filters }),
      ...(Option.isSome(values.active) ? { active: values.active.value === "true" } : {}),
      ...(Option.isSome(values.tags) ? { tags: commaList(values.tags.value) } : {})
    }
  })

const create = flag.create({
  description: "Create a feature flag",
  input: { flagKey: Argument.String("flag-key").pipe(Argument.withDescription("The new flag's key: letters, digits, - and _")) },
  flags: {
    ...bodyFlags,
    noDashboard: Flag.Boolean("no-usage-dashboard").pipe(
      Flag.withDescription("Do not create the flag's usage dashboard"),
      Flag.withDefault(false)
    )
  },
  body: (values) =>
    Effect.map(bodyOf(values), (body) => ({
      ...body,
      key: values.flagKey,
      ...(values.noDashboard ? { _should_create_usage_dashboard: false } : {})
    })),
  schema: (core) => core.FlagCreateBody,
  send: ({ client, at }, payload) => client.featureFlags.create({ params: at, payload })
})

/** A PATCH of one flag: update, delete and restore are each one. */
const patch = {
  schema: (core: Core) => core.FlagUpdateBody,
  send: ({ client, at, id }: ItemCall<{ readonly project_id: string }, unknown>, payload: Core["FlagUpdateBody"]["Type"]) =>
    client.featureFlags.update({ params: { ...at, id }, payload })
}

const update = flag.update("update", {
  description: "Change some fields of a feature flag",
  flags: {
    flagKey: Flag.String("flag-key").pipe(Flag.withDescription("A new key for the flag (--key is the API key)"), Flag.optional),
    ...bodyFlags,
    version: Flag.Int("version").pipe(
      Flag.withDescription("The version you last read: refused (409) if someone changed the flag since"),
      Flag.optional
    )
  },
  body: (values) => Effect.map(bodyOf(values), (body) => ({ ...body, ...given({ key: values.flagKey, version: values.version }) })),
  ...patch
})

const { remove, restore } = flag.softDelete({
  remove: "Soft-delete a feature flag (PATCH deleted: true); `restore` undoes it",
  restore: "Restore a soft-deleted feature flag (refused if its key is taken meanwhile)",
  ...patch
})

const status = flag.onItem("status", {
  description: "Whether a flag is active, inactive, stale or deleted, and why",
  run: ({ client, at, id, json }) =>
    client.featureFlags.status({ params: { ...at, id } }).pipe(Effect.flatMap(emit(json, (answer) => details(answer))))
})

export const flags = Command.make("flags").pipe(
  Command.withDescription("Feature flags of a project, through the API (--url, --key): manage them, evaluate one, read the definitions"),
  Command.withSubcommands([list, get, create, update, remove, restore, status, activity, roleAccess, evaluate, definitions, usage, copy, ...flagFileCommands])
)
