import type { Invite, InviteCreate } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as FileSystem from "effect/FileSystem"
import { Argument, Command, Flag } from "effect/cli"
import { CsvError, parseCsv } from "../csv.ts"
import { MAX_BULK_INVITES } from "../defaults.ts"
import { details, describeFailure, emit, jsonFlag, UsageError } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { type Core, loadCore } from "../packages.ts"
import { checkPayload, currentOrgFlag, remoteFlags, withApi, withPublicApi } from "../remote.ts"
import { askText, readSecret } from "../secret-input.ts"
import { dataFlag, extraData, given } from "../request-body.ts"

const noEmailFlag = Flag.Boolean("no-email").pipe(
  Flag.withDescription("Record the invite without sending its e-mail (send_email false)"),
  Flag.withDefault(false)
)

const summary = (invite: Invite) =>
  details(invite, ["id", "target_email", "first_name", "level", "is_expired", "emailing_attempt_made", "private_project_access", "created_at"])

const list = Command.make(
  "list",
  { ...remoteFlags, org: currentOrgFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "target_email", "level", "is_expired", "emailing_attempt_made", "created_at"],
        (query) => client.invites.list({ params: { organization_id: options.org }, query })
      ))
).pipe(Command.withDescription("List an organization's invites, newest first (expired ones too)"))

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    email: Flag.String("email").pipe(Flag.withDescription("The invitee's e-mail address")),
    org: currentOrgFlag,
    firstName: Flag.String("first-name").pipe(Flag.withDescription("The invitee's first name (at most 30 characters)"), Flag.optional),
    level: Flag.String("level").pipe(Flag.withDescription("1 member (default), 8 administrator, 15 owner; not above your own"), Flag.optional),
    message: Flag.String("message").pipe(Flag.withDescription("A note for the invitee"), Flag.optional),
    noEmail: noEmailFlag,
    combine: Flag.Boolean("combine").pipe(
      Flag.withDescription("Merge the address's pending invites into this one (highest level, all project access)"),
      Flag.withDefault(false)
    ),
    data: dataFlag(" (e.g. private_project_access)"),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const extra = yield* extraData(options.data)
        const body = {
          ...extra,
          target_email: options.email,
          ...given({ first_name: options.firstName, level: options.level, message: options.message }),
          ...(options.noEmail ? { send_email: false } : {}),
          ...(options.combine ? { combine_pending_invites: true } : {})
        }
        const payload = yield* checkPayload((core) => core.InviteCreate, body)
        const invite = yield* client.invites.create({ params: { organization_id: options.org }, payload })
        yield* emit(options.json, summary)(invite)
      }))
).pipe(Command.withDescription("Invite someone to an organization; earlier invites for the address are replaced"))

const remove = Command.make(
  "delete",
  { ...remoteFlags, id: Argument.String("id").pipe(Argument.withDescription("Invite id (uuid)")), org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.invites.destroy({ params: { organization_id: options.org, id: options.id } }).pipe(
        Effect.andThen(emit(options.json, () => `Deleted invite ${options.id}.`)({ id: options.id, deleted: true }))
      ))
).pipe(Command.withDescription("Withdraw an invite"))

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

const bulk = Command.make(
  "bulk",
  {
    ...remoteFlags,
    file: Flag.String("file").pipe(Flag.withDescription(`CSV with a header row: ${CSV_COLUMNS.join(",")} (target_email required)`)),
    org: currentOrgFlag,
    noEmail: noEmailFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const rows = yield* readInvites(options.file, !options.noEmail)
        const core = yield* loadCore
        let sent = 0
        // Each batch is all or nothing on the server; a failed batch stops the run after the ones already sent.
        for (let start = 0; start < rows.length; start += MAX_BULK_INVITES) {
          const batch = rows.slice(start, start + MAX_BULK_INVITES)
          yield* client.invites.bulk({ params: { organization_id: options.org }, payload: batch.map((row) => row.invite) }).pipe(
            Effect.mapError(inBatch(core, options.file, batch))
          )
          sent += batch.length
          if (!options.json) yield* Console.log(`sent ${sent}/${rows.length}`)
        }
        if (options.json) yield* Console.log(JSON.stringify({ sent, total: rows.length }, null, 2))
      }))
).pipe(Command.withDescription(`Invite everyone in a CSV file, ${MAX_BULK_INVITES} per request`))

const acceptInvite = Command.make(
  "accept",
  {
    url: remoteFlags.url,
    id: Argument.String("invite-id").pipe(Argument.withDescription("The invite id its e-mail gives")),
    firstName: Flag.String("first-name").pipe(
      Flag.withDescription("Your first name (default: the invite's, else asked on a terminal)"),
      Flag.optional
    ),
    json: jsonFlag
  },
  (options) =>
    withPublicApi(options.url, (client) =>
      Effect.gen(function*() {
        const params = { invite_id: options.id }
        const invite = yield* client.signup.prevalidate({ params })
        if (!options.json) yield* Console.error(`Invite to ${invite.organization_name} for ${invite.target_email}.`)
        const firstName = Option.isSome(options.firstName)
          ? options.firstName.value
          : invite.first_name !== ""
          ? invite.first_name
          : yield* askText("First name", "--first-name")
        const password = yield* readSecret("Password", { confirm: true })
        const payload = yield* checkPayload((core) => core.InviteAccept, { first_name: firstName, password })
        const user = yield* client.signup.accept({ params, payload })
        yield* emit(options.json, (joined: typeof user) =>
          `${joined.email} is now a member of ${invite.organization_name}; log in with this e-mail and password.`)(user)
      }))
).pipe(Command.withDescription(
  "Accept an invite as a new user: your first name, and a password read from stdin (first line) or asked without echo; no key needed"
))

export const invites = Command.make("invites").pipe(
  Command.withDescription("Organization invites, through the API (--url, --key)"),
  Command.withSubcommands([list, create, remove, bulk, acceptInvite])
)
