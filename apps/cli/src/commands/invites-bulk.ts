import type { InviteCreate } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import { Flag } from "effect/cli"
import { CsvError, parseCsv } from "../csv.ts"
import { MAX_BULK_INVITES } from "../defaults.ts"
import { describeFailure, UsageError } from "../output.ts"
import { type Core, loadCore } from "../packages.ts"
import { checkPayload } from "../remote.ts"
import { invite, noEmailFlag } from "./invites-resource.ts"

/** The columns a bulk file may have; `target_email` is required, the others may be absent or empty. */
const CSV_COLUMNS = ["target_email", "first_name", "level"] as const

interface Row {
  /** Data row number (the header is row 0) and the file line it starts on, for error lines. */
  readonly row: number
  readonly line: number
  readonly invite: InviteCreate
}

const rowError = (file: string, row: number, line: number, reason: string) =>
  new UsageError({ message: `${file}, row ${row} (line ${line}): ${reason}` })

/** Reads and checks the whole file before anything is sent: a bad row stops the run with its number. */
const readInvites = (file: string, sendEmail: boolean) =>
  Effect.gen(function*() {
    const text = yield* Effect.flatMap(Effect.service(FileSystem.FileSystem), (fs) => fs.readFileString(file)).pipe(
      Effect.mapError((error) => new UsageError({ message: `--file: cannot read ${file}: ${error.message}` }))
    )
    const records = yield* Effect.try({
      try: () => parseCsv(text),
      catch: (error) =>
        error instanceof CsvError ? new UsageError({ message: `${file}, line ${error.line}: ${error.reason}` }) : new UsageError({ message: String(error) })
    })
    const [header, ...data] = records
    if (header === undefined) return yield* new UsageError({ message: `${file} is empty: expected a header row (${CSV_COLUMNS.join(",")})` })
    const columns = header.fields.map((name) => name.trim())
    const unknown = columns.find((name) => !(CSV_COLUMNS as ReadonlyArray<string>).includes(name))
    if (unknown !== undefined || !columns.includes("target_email") || new Set(columns).size !== columns.length) {
      return yield* new UsageError({
        message: `${file}, line ${header.line}: the header must name target_email and optionally first_name and level, each once; found ${columns.join(",")}`
      })
    }
    if (data.length === 0) return yield* new UsageError({ message: `${file} has a header but no invites` })
    const rows: Array<Row> = []
    for (const [index, record] of data.entries()) {
      const row = index + 1
      if (record.fields.length !== columns.length) {
        return yield* rowError(file, row, record.line, `expected ${columns.length} fields, found ${record.fields.length}`)
      }
      const cells = Object.fromEntries(columns.map((name, i) => [name, record.fields[i]!]))
      const body = {
        target_email: cells["target_email"],
        // An empty cell means "not given": the server's default applies.
        ...(cells["first_name"] ? { first_name: cells["first_name"] } : {}),
        ...(cells["level"]?.trim() ? { level: cells["level"].trim() } : {}),
        ...(sendEmail ? {} : { send_email: false })
      }
      const invite = yield* checkPayload((core) => core.InviteCreate, body).pipe(
        Effect.mapError((error) => rowError(file, row, record.line, describeFailure(error)))
      )
      rows.push({ row, line: record.line, invite })
    }
    return rows
  })

/** A server error about one item of a batch (`3__target_email`, or `3`) names that item's row. */
const inBatch = ({ ValidationError }: Core, file: string, batch: ReadonlyArray<Row>) => (error: unknown) => {
  if (!(error instanceof ValidationError) || error.attr === null) return error
  const [index, ...field] = error.attr.split("__")
  const row = batch[Number(index)]
  if (row === undefined || !/^\d+$/.test(index!)) return error
  return rowError(file, row.row, row.line, describeFailure(new ValidationError({ ...error, attr: field.length === 0 ? null : field.join("__") })))
}

export const bulk = invite.onAll("bulk", {
  description: `Invite everyone in a CSV file, ${MAX_BULK_INVITES} per request`,
  input: { file: Flag.String("file").pipe(Flag.withDescription(`CSV with a header row: ${CSV_COLUMNS.join(",")} (target_email required)`)) },
  flags: { noEmail: noEmailFlag },
  run: ({ client, at, values, json }) =>
    Effect.gen(function*() {
      const rows = yield* readInvites(values.file, !values.noEmail)
      const core = yield* loadCore
      let sent = 0
      // Each batch is all or nothing on the server; a failed batch stops the run after the ones already sent.
      for (let start = 0; start < rows.length; start += MAX_BULK_INVITES) {
        const batch = rows.slice(start, start + MAX_BULK_INVITES)
        yield* client.invites.bulk({ params: at, payload: batch.map((row) => row.invite) }).pipe(
          Effect.mapError(inBatch(core, values.file, batch))
        )
        sent += batch.length
        if (!json) yield* Console.log(`sent ${sent}/${rows.length}`)
      }
      if (json) yield* Console.log(JSON.stringify({ sent, total: rows.length }, null, 2))
    })
})
