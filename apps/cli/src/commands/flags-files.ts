import type { FileCohort, FileFlag, FlagsFile, ImportPlan, PlannedRecord } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import { Argument, Flag } from "effect/cli"
import { describeFailure, UsageError } from "../output.ts"
import { loadCore } from "../packages.ts"
import { allPages } from "../paging.ts"
import { type ApiClient, checkPayload } from "../remote.ts"
import { flag } from "./flags-resource.ts"

/** A flags file larger than this is refused before it is read: no project's configuration comes near it. */
const MAX_FILE_BYTES = 16 * 1024 * 1024

type At = { readonly project_id: string }

/** The project's live flags, cohorts and group types, as a flags file. */
const projectFile = (client: ApiClient, at: At) =>
  Effect.gen(function*() {
    const core = yield* loadCore
    const flags = yield* allPages((query) => client.featureFlags.list({ params: at, query }), { limit: "1000" })
    const cohorts = yield* allPages((query) => client.cohorts.list({ params: at, query }), { limit: "1000" })
    const groupTypes = yield* client.groupTypes.list({ params: at })
    // Without `basic`, the list answers each cohort whole, its definition included.
    const whole = cohorts.results.flatMap((cohort) => ("filters" in cohort ? [cohort] : []))
    const file = core.flagsFileOf({ flags: flags.results, cohorts: whole, groupTypes })
    if (typeof file === "string") return yield* new UsageError({ message: file })
    return file
  })

const exportFlags = flag.onAll("export", {
  description:
    "Write the project's flags, cohorts and group types as a flags file on stdout (records named by key and name, never by id): keep it in git, import it elsewhere",
  run: ({ client, at }) =>
    Effect.flatMap(projectFile(client, at), (file) => Console.log(JSON.stringify(file, null, 2)))
})

/** The file at `path`, read, parsed and checked whole by core's rules before anything is sent. */
const readFile = (path: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const cannotRead = (error: { readonly message: string }) => new UsageError({ message: `cannot read ${path}: ${error.message}` })
    const info = yield* fs.stat(path).pipe(Effect.mapError(cannotRead))
    if (Number(info.size) > MAX_FILE_BYTES) {
      return yield* new UsageError({ message: `${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB: not a flags file` })
    }
    const text = yield* fs.readFileString(path).pipe(Effect.mapError(cannotRead))
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new UsageError({ message: `${path} is not valid JSON: ${(error as Error).message}` })
    })
    const core = yield* loadCore
    return yield* core.readFlagsFile(json).pipe(
      Effect.mapError((error) => new UsageError({ message: `${path}: ${error.attr === null ? "" : `${error.attr}: `}${error.detail}` }))
    )
  })

const recordLine = (record: PlannedRecord) => {
  const name = record.kind === "flag" ? record.name : JSON.stringify(record.name)
  return record.action === "update"
    ? `update ${record.kind} ${name}: ${record.fields.join(", ")}`
    : `${record.action} ${record.kind} ${name}`
}

/** The plan as lines: each record and what happens to it, what is left alone, and the counts. */
const planLines = (plan: ImportPlan, written: boolean): ReadonlyArray<string> => {
  const count = (action: PlannedRecord["action"]) => plan.records.filter((record) => record.action === action).length
  const alone = plan.leftAlone.map((record) => `left alone (not in the file): ${record.kind} ${record.kind === "flag" ? record.name : JSON.stringify(record.name)}`)
  const summary = `${count("create")} to create, ${count("update")} to update, ${count("unchanged")} unchanged, ${plan.leftAlone.length} left alone`
  return [...plan.records.map(recordLine), ...alone, written ? summary.replaceAll(" to ", " ").replace("create,", "created,").replace("update,", "updated,") : `${summary} (dry run: nothing written)`]
}

/** The writes of a plan, over the API, in an order where every record exists before another names it. */
const apply = (client: ApiClient, at: At, file: FlagsFile, plan: ImportPlan) =>
  Effect.gen(function*() {
    const core = yield* loadCore
    const planned = new Map(plan.records.map((record) => [`${record.kind}:${record.name}`, record]))
    const actionOf = (kind: PlannedRecord["kind"], name: string) => planned.get(`${kind}:${name}`)!
    const step = <A, E, R>(kind: string, name: string, write: Effect.Effect<A, E, R>) =>
      write.pipe(Effect.mapError((error) => new UsageError({ message: `import stopped at ${kind} ${JSON.stringify(name)}: ${describeFailure(error)}` })))

    for (const type of file.group_types) {
      if (actionOf("group type", type.group_type).action === "create") {
        yield* step("group type", type.group_type, client.groupTypes.create({ params: at, payload: { group_type: type.group_type } }))
      }
    }
    const groupTypes = yield* client.groupTypes.list({ params: at })
    const indexes = core.groupTypeIndexesIn(file.group_types, groupTypes)
    if (typeof indexes === "string") return yield* new UsageError({ message: indexes })
    const named = file.group_types.filter((type) => actionOf("group type", type.group_type).action !== "unchanged" && (type.name_singular !== null || type.name_plural !== null))
    if (named.length > 0) {
      const rows = named.map((type) => ({ group_type_index: indexes.get(type.group_type_index)!, name_singular: type.name_singular, name_plural: type.name_plural }))
      yield* step("group type", named[0]!.group_type, client.groupTypes.updateMetadata({ params: at, payload: rows }))
    }

    const order = core.inFileOrder(file)
    if (typeof order === "string") return yield* new UsageError({ message: order })
    const liveCohorts = yield* allPages((query) => client.cohorts.list({ params: at, query }), { limit: "1000" })
    const liveFlags = yield* allPages((query) => client.featureFlags.list({ params: at, query }), { limit: "1000" })
    const cohortIds = new Map(liveCohorts.results.flatMap((cohort) => (cohort.name === null ? [] : [[cohort.name, cohort.id as number] as const])))
    const flagIds = new Map(liveFlags.results.map((found) => [found.key, found.id as number] as const))
    const ids = { cohorts: cohortIds, flags: flagIds, groupTypeIndexes: indexes }

    for (const cohort of order.cohorts) {
      const { action, fields } = actionOf("cohort", cohort.name)
      if (action === "unchanged") continue
      const body: Partial<Record<keyof FileCohort, unknown>> = {
        name: cohort.name,
        description: cohort.description,
        is_static: cohort.is_static,
        ...(cohort.filters === null ? {} : { filters: core.forProject(cohort.filters, ids) })
      }
      const payload = yield* checkPayload((c) => c.CohortWrite, action === "create" ? body : pick(body, fields))
      const written = action === "create"
        ? yield* step("cohort", cohort.name, client.cohorts.create({ params: at, payload }))
        : yield* step("cohort", cohort.name, client.cohorts.update({ params: { ...at, id: String(cohortIds.get(cohort.name)!) }, payload }))
      cohortIds.set(cohort.name, written.id)
    }

    for (const wanted of order.flags) {
      const { action, fields } = actionOf("flag", wanted.key)
      if (action === "unchanged") continue
      const body: Partial<Record<keyof FileFlag, unknown>> = { ...wanted, filters: core.forProject(wanted.filters, ids) }
      if (action === "create") {
        const payload = yield* checkPayload((c) => c.FlagCreateBody, body)
        const created = yield* step("flag", wanted.key, client.featureFlags.create({ params: at, payload }))
        flagIds.set(wanted.key, created.id)
      } else {
        const payload = yield* checkPayload((c) => c.FlagUpdateBody, pick(body, fields))
        yield* step("flag", wanted.key, client.featureFlags.update({ params: { ...at, id: String(flagIds.get(wanted.key)) }, payload }))
      }
    }
  })

const pick = (body: Readonly<Record<string, unknown>>, fields: ReadonlyArray<string>) =>
  Object.fromEntries(fields.map((field) => [field, body[field]]))

const importFlags = flag.onAll("import", {
  description:
    "Make the project hold the flags file's flags, cohorts and group types, matched by key and name: creates what is missing, updates what differs, never deletes. --dry-run only says what it would do",
  input: { file: Argument.String("file").pipe(Argument.withDescription("A flags file, as `flags export` writes it")) },
  flags: {
    dryRun: Flag.Boolean("dry-run").pipe(Flag.withDescription("Print what would be created, updated and left alone, and write nothing"), Flag.withDefault(false))
  },
  run: ({ client, at, values, json }) =>
    Effect.gen(function*() {
      const core = yield* loadCore
      const file = yield* readFile(values.file)
      const current = yield* projectFile(client, at)
      const plan = core.importPlan(file, current)
      if (typeof plan === "string") return yield* new UsageError({ message: plan })
      if (!values.dryRun) yield* apply(client, at, file, plan)
      const answer = { dry_run: values.dryRun, records: plan.records, left_alone: plan.leftAlone }
      yield* Console.log(json ? JSON.stringify(answer) : planLines(plan, !values.dryRun).join("\n"))
    })
})

export const flagFileCommands = [exportFlags, importFlags] as const
