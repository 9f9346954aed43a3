import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import { MAX_FORM_BYTES, MAX_MEMBERS_PER_REQUEST } from "../defaults.ts"
import { emit, UsageError } from "../output.ts"
import type { Core } from "../packages.ts"
import { checkPayload } from "../remote.ts"
import { commaList, extraData, given, jsonObjectData } from "../request-body.ts"
import type { ItemCall } from "../resource.ts"
import { activityCommand } from "./activity.ts"
import { members } from "./cohorts-members.ts"
import { cohort, cohortRow } from "./cohorts-resource.ts"

const list = cohort.list({
  description: "List a project's cohorts, newest first (soft-deleted ones are hidden)",
  flags: {
    type: Flag.Literals("type", ["static", "dynamic"]).pipe(Flag.optional),
    search: Flag.String("search").pipe(Flag.withDescription("Case-insensitive part of the name"), Flag.optional),
    createdBy: Flag.Int("created-by").pipe(Flag.withDescription("Id of the user who created the cohorts"), Flag.optional),
    hideBehavioral: Flag.Boolean("hide-behavioral").pipe(
      Flag.withDescription("Leave out cohorts filtering on events, which flags cannot use"),
      Flag.withDefault(false)
    )
  },
  columns: ["id", "name", "type", "count", "created_by", "created_at"],
  row: cohortRow,
  fetch: ({ client, at, values }, page) =>
    client.cohorts.list({
      params: at,
      query: {
        ...given({ type: values.type, search: values.search }),
        ...(Option.isSome(values.createdBy) ? { created_by_id: String(values.createdBy.value) } : {}),
        ...(values.hideBehavioral ? { hide_behavioral_cohorts: "true" } : {}),
        ...page
      }
    })
})

const get = cohort.get({
  description: "Show a cohort (soft-deleted ones too)",
  fetch: ({ client, at, id }) => client.cohorts.retrieve({ params: { ...at, id } })
})

/** Flags shared by create and update; `--data` holds any other writable field, and the flags win. */
const bodyFlags = {
  name: Flag.String("name").pipe(Flag.optional),
  description: Flag.String("description").pipe(Flag.optional),
  filters: Flag.String("filters").pipe(
    Flag.withDescription("A dynamic cohort's filters as a JSON object, inline or @file.json: {\"properties\": {\"type\": \"OR\", \"values\": [...]}}"),
    Flag.optional
  ),
  data: Flag.String("data").pipe(Flag.withDescription("Other writable fields as a JSON object, inline or @file.json"), Flag.optional)
}

const bodyOf = (values: { readonly [K in keyof typeof bodyFlags]: Option.Option<string> }) =>
  Effect.gen(function*() {
    const extra = yield* extraData(values.data)
    const filters = Option.isSome(values.filters) ? yield* jsonObjectData(values.filters.value, "--filters") : undefined
    return { ...extra, ...given({ name: values.name, description: values.description }), ...(filters === undefined ? {} : { filters }) }
  })

const fileFlag = Flag.String("file").pipe(Flag.withDescription("A CSV of distinct ids: a column headed distinct_id, or one column"))

/** A CSV file's bytes, or a usage error naming it. */
const readCsv = (path: string) =>
  Effect.flatMap(Effect.service(FileSystem.FileSystem), (fs) => fs.readFile(path)).pipe(
    Effect.mapError((error) => new UsageError({ message: `--file: cannot read ${path}: ${error.message}` }))
  )

/**
 * A body as the form a browser uploads a CSV with: each field as text (objects and lists as JSON text,
 * a list of distinct ids as one field each), the file as `csv`.
 */
const formOf = (body: Record<string, unknown>, csv: Uint8Array, fileName: string) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(body)) {
    if (name === "_create_static_person_ids" && Array.isArray(value)) for (const id of value) form.append(name, String(id))
    else form.append(name, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value))
  }
  form.append("csv", new Blob([csv as BlobPart], { type: "text/csv" }), fileName.split("/").at(-1) ?? "members.csv")
  return form
}

// Not a plain write: with --file the body goes as a form, beside the CSV, once checked as JSON.
const create = cohort.onAll("create", {
  description: "Create a cohort: dynamic from --filters, or static from --distinct-ids and --file",
  flags: {
    ...bodyFlags,
    static: Flag.Boolean("static").pipe(Flag.withDescription("A static cohort: a list of distinct ids"), Flag.withDefault(false)),
    distinctIds: Flag.String("distinct-ids").pipe(Flag.withDescription("A static cohort's first members, comma-separated"), Flag.optional),
    file: fileFlag.pipe(Flag.withDescription("A static cohort's first members from a CSV (implies --static)"), Flag.optional)
  },
  run: ({ client, at, values, json }) =>
    Effect.gen(function*() {
      const isStatic = values.static || Option.isSome(values.file) || Option.isSome(values.distinctIds)
      const body = {
        ...(yield* bodyOf(values)),
        ...(isStatic ? { is_static: true } : {}),
        ...(Option.isSome(values.distinctIds) ? { _create_static_person_ids: commaList(values.distinctIds.value) } : {})
      }
      const checked = yield* checkPayload((core) => core.CohortWrite, body)
      const created = Option.isSome(values.file)
        ? yield* client.cohorts.create({ params: at, payload: formOf(body, yield* readCsv(values.file.value), values.file.value) })
        : yield* client.cohorts.create({ params: at, payload: checked })
      yield* emit(json, cohort.show)(created)
    })
})

/** A PATCH of one cohort: update, delete and restore are each one. */
const patch = {
  schema: (core: Core) => core.CohortWrite,
  send: ({ client, at, id }: ItemCall<{ readonly project_id: string }, unknown>, payload: Core["CohortWrite"]["Type"]) =>
    client.cohorts.update({ params: { ...at, id }, payload })
}

const update = cohort.update("update", {
  description: "Change some fields of a cohort",
  flags: bodyFlags,
  body: bodyOf,
  ...patch
})

const { remove, restore } = cohort.softDelete({
  remove: "Soft-delete a cohort (PATCH deleted: true; refused while a flag or a cohort uses it); `restore` undoes it",
  restore: "Restore a soft-deleted cohort",
  ...patch
})

const upload = cohort.onItem("upload", {
  description:
    `Add the distinct ids of a CSV to a static cohort (at most ${MAX_FORM_BYTES / 1024 / 1024} MiB, ${MAX_MEMBERS_PER_REQUEST.toLocaleString("en-US")} ids)`,
  flags: { file: fileFlag },
  run: ({ client, at, id, values, json }) =>
    Effect.gen(function*() {
      const payload = formOf({}, yield* readCsv(values.file), values.file)
      const updated = yield* client.cohorts.update({ params: { ...at, id }, payload })
      yield* emit(json, cohort.show)(updated)
    })
})

const activity = activityCommand(cohort, {
  description: "Activity log of one cohort or of every cohort of the project, newest first",
  ofProject: (client, at, query) => client.cohorts.projectActivity({ params: at, query }),
  ofItem: (client, at, id, query) => client.cohorts.activity({ params: { ...at, id }, query })
})

export const cohorts = Command.make("cohorts").pipe(
  Command.withDescription("Cohorts of a project, through the API (--url, --key): dynamic ones' filters, static ones' distinct ids"),
  Command.withSubcommands([list, get, create, update, remove, restore, upload, members, activity])
)
