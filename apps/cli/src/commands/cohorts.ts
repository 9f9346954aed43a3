import type { BasicCohortView, CohortView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import { MAX_FORM_BYTES, MAX_MEMBERS_PER_REQUEST } from "../defaults.ts"
import { details, emit, jsonFlag, UsageError } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { type ApiClient, checkPayload, remoteFlags, withApi } from "../remote.ts"
import { commaList, extraData, given, jsonObjectData } from "../request-body.ts"
import { activityCommand } from "./activity.ts"
import { members } from "./cohorts-members.ts"
import { cohortIdArgument } from "./cohorts-shared.ts"
import { projectFlag } from "./flags-shared.ts"

/** A cohort as one row of the list table (a `basic` list's cohort has all it needs). */
const row = (cohort: BasicCohortView) => ({
  id: cohort.id,
  name: cohort.name,
  type: cohort.is_static ? "static" : "dynamic",
  count: cohort.count,
  created_by: cohort.created_by?.email ?? null,
  created_at: cohort.created_at
})

/** What a person reads of a cohort; `--json` prints all of it. */
const summary = (cohort: CohortView) =>
  details({ ...row(cohort), description: cohort.description, deleted: cohort.deleted, filters: cohort.filters }, [
    "id", "name", "description", "type", "count", "deleted", "filters", "created_by", "created_at"
  ])

const list = Command.make(
  "list",
  {
    ...remoteFlags,
    project: projectFlag,
    type: Flag.Literals("type", ["static", "dynamic"]).pipe(Flag.optional),
    search: Flag.String("search").pipe(Flag.withDescription("Case-insensitive part of the name"), Flag.optional),
    createdBy: Flag.Int("created-by").pipe(Flag.withDescription("Id of the user who created the cohorts"), Flag.optional),
    hideBehavioral: Flag.Boolean("hide-behavioral").pipe(
      Flag.withDescription("Leave out cohorts filtering on events, which flags cannot use"),
      Flag.withDefault(false)
    ),
    ...pageFlags,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) => {
      const filters = {
        ...given({ type: options.type, search: options.search }),
        ...(Option.isSome(options.createdBy) ? { created_by_id: String(options.createdBy.value) } : {}),
        ...(options.hideBehavioral ? { hide_behavioral_cohorts: "true" } : {})
      }
      return listCommand(
        options,
        ["id", "name", "type", "count", "created_by", "created_at"],
        (page) => client.cohorts.list({ params: { project_id: options.project }, query: { ...filters, ...page } }),
        row
      )
    })
).pipe(Command.withDescription("List a project's cohorts, newest first (soft-deleted ones are hidden)"))

const get = Command.make(
  "get",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.cohorts.retrieve({ params: { project_id: options.project, id: options.id } }).pipe(Effect.flatMap(emit(options.json, summary))))
).pipe(Command.withDescription("Show a cohort (soft-deleted ones too)"))

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

const bodyOf = (options: { readonly [K in keyof typeof bodyFlags]: Option.Option<string> }) =>
  Effect.gen(function*() {
    const extra = yield* extraData(options.data)
    const filters = Option.isSome(options.filters) ? yield* jsonObjectData(options.filters.value, "--filters") : undefined
    return { ...extra, ...given({ name: options.name, description: options.description }), ...(filters === undefined ? {} : { filters }) }
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

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    project: projectFlag,
    ...bodyFlags,
    static: Flag.Boolean("static").pipe(Flag.withDescription("A static cohort: a list of distinct ids"), Flag.withDefault(false)),
    distinctIds: Flag.String("distinct-ids").pipe(Flag.withDescription("A static cohort's first members, comma-separated"), Flag.optional),
    file: fileFlag.pipe(Flag.withDescription("A static cohort's first members from a CSV (implies --static)"), Flag.optional),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const isStatic = options.static || Option.isSome(options.file) || Option.isSome(options.distinctIds)
        const body = {
          ...(yield* bodyOf(options)),
          ...(isStatic ? { is_static: true } : {}),
          ...(Option.isSome(options.distinctIds) ? { _create_static_person_ids: commaList(options.distinctIds.value) } : {})
        }
        const checked = yield* checkPayload((core) => core.CohortWrite, body)
        const params = { project_id: options.project }
        const cohort = Option.isSome(options.file)
          ? yield* client.cohorts.create({ params, payload: formOf(body, yield* readCsv(options.file.value), options.file.value) })
          : yield* client.cohorts.create({ params, payload: checked })
        yield* emit(options.json, summary)(cohort)
      }))
).pipe(Command.withDescription("Create a cohort: dynamic from --filters, or static from --distinct-ids and --file"))

/** PATCH one cohort with `body`, checked first with core's own schema. */
const patch = (client: ApiClient, options: { readonly project: string; readonly id: string; readonly json: boolean }, body: object) =>
  checkPayload((core) => core.CohortWrite, body).pipe(
    Effect.flatMap((payload) => client.cohorts.update({ params: { project_id: options.project, id: options.id }, payload })),
    Effect.flatMap(emit(options.json, summary))
  )

const update = Command.make(
  "update",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, ...bodyFlags, json: jsonFlag },
  (options) => withApi(options, (client) => Effect.flatMap(bodyOf(options), (body) => patch(client, options, body)))
).pipe(Command.withDescription("Change some fields of a cohort"))

const remove = Command.make(
  "delete",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, json: jsonFlag },
  (options) => withApi(options, (client) => patch(client, options, { deleted: true }))
).pipe(Command.withDescription("Soft-delete a cohort (PATCH deleted: true; refused while a flag or a cohort uses it); `restore` undoes it"))

const restore = Command.make(
  "restore",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, json: jsonFlag },
  (options) => withApi(options, (client) => patch(client, options, { deleted: false }))
).pipe(Command.withDescription("Restore a soft-deleted cohort"))

const upload = Command.make(
  "upload",
  { ...remoteFlags, id: cohortIdArgument, project: projectFlag, file: fileFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = formOf({}, yield* readCsv(options.file), options.file)
        const cohort = yield* client.cohorts.update({ params: { project_id: options.project, id: options.id }, payload })
        yield* emit(options.json, summary)(cohort)
      }))
).pipe(Command.withDescription(
  `Add the distinct ids of a CSV to a static cohort (at most ${MAX_FORM_BYTES / 1024 / 1024} MiB, ${MAX_MEMBERS_PER_REQUEST.toLocaleString("en-US")} ids)`
))

const activity = activityCommand({
  item: "cohort",
  description: "Activity log of one cohort or of every cohort of the project, newest first",
  ofProject: (client, project, query) => client.cohorts.projectActivity({ params: { project_id: project }, query }),
  ofItem: (client, project, id, query) => client.cohorts.activity({ params: { project_id: project, id }, query })
})

export const cohorts = Command.make("cohorts").pipe(
  Command.withDescription("Cohorts of a project, through the API (--url, --key): dynamic ones' filters, static ones' distinct ids"),
  Command.withSubcommands([list, get, create, update, remove, restore, upload, members, activity])
)
