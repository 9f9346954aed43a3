import { Effect } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { distinctIdError } from "../shared/distinct-id.ts"
import { pythonStrip } from "../shared/fields.ts"
import { pythonStr } from "../shared/validation.ts"
import { CsvFault, csvRows, MAX_COLUMNS, MAX_ROW_LENGTH, PAUSE } from "./csv-rows.ts"

/**
 * A static cohort's CSV, read as PostHog reads it: UTF-8, cut into lines as Python's `splitlines` cuts
 * them, each parsed as Python's `csv` module parses a line (commas, double quotes, a quoted field going
 * on to the next line); leading empty rows skipped. A first row with at most one filled column makes a
 * one-column file whose first row is data; otherwise the first row is a header naming the id column.
 * This service keeps no persons, so its members are distinct ids: a file of person ids or e-mail
 * addresses is refused, and a distinct id column wins over the others. The reading yields between
 * slices, so a large file never holds the event loop for long.
 */

/** Distinct ids one upload (or one list) may add: enough for real lists, few enough for one transaction. */
export const MAX_MEMBERS_PER_REQUEST = 100_000

const MESSAGES = {
  empty: "CSV file is empty. Please upload a CSV file with at least one row of data.",
  missingColumn: (columns: string) =>
    `Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: ${columns}`,
  noIds:
    "CSV file contains no valid person IDs, distinct IDs, or email addresses. Please ensure your file has data rows with person IDs, distinct IDs, or email addresses.",
  encoding: "CSV file encoding is not supported. Please save your file as UTF-8 and try again.",
  format: "CSV file format is invalid. Please check your file format and try again."
}

const csvError = (detail: string) => ValidationError.field("csv", detail, "invalid")

const PERSON_ID_HEADERS = new Set(["person_id", "person-id", "person .id"])
const DISTINCT_ID_HEADERS = new Set(["distinct_id", "distinct-id"])
const EMAIL_HEADERS = new Set(["email", "e-mail"])

const headerKind = (header: string): "person_id" | "distinct_id" | "email" | undefined => {
  const name = pythonStrip(header).toLowerCase()
  return PERSON_ID_HEADERS.has(name) ? "person_id" : DISTINCT_ID_HEADERS.has(name) ? "distinct_id" : EMAIL_HEADERS.has(name) ? "email" : undefined
}

const personsRefused = (kind: "person_id" | "email") =>
  csvError(
    `This service keeps no persons, so a static cohort holds distinct IDs: a CSV of ${kind === "email" ? "email addresses" : "person IDs"} cannot be read. Upload a column headed distinct_id, or a single column of distinct IDs.`
  )

const faultMessage = (fault: CsvFault, row: number) =>
  fault.kind === "length"
    ? `A CSV row may have at most ${MAX_ROW_LENGTH.toLocaleString("en-US")} characters; row ${row} has more.`
    : fault.kind === "columns"
    ? `A CSV row may have at most ${MAX_COLUMNS.toLocaleString("en-US")} columns; row ${row} has more.`
    : MESSAGES.format

/** Columns a refusal names: the first few, cut short, and how many more. An error never echoes the file. */
const MAX_NAMED_COLUMNS = 20

const namedColumns = (columns: ReadonlyArray<string>) => {
  const named = pythonStr(columns.slice(0, MAX_NAMED_COLUMNS).join(", "))
  return columns.length > MAX_NAMED_COLUMNS ? `${named}, and ${columns.length - MAX_NAMED_COLUMNS} more` : named
}

/** Bytes decoded between two yields to the event loop. */
const BYTES_PER_SLICE = 262_144

/** The file as UTF-8 text, decoded a slice at a time; undefined when it is not UTF-8. */
const decoded = (content: Uint8Array): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    const decoder = new TextDecoder("utf-8", { fatal: true })
    const parts: Array<string> = []
    try {
      for (let start = 0; start < content.length; start += BYTES_PER_SLICE) {
        parts.push(decoder.decode(content.subarray(start, start + BYTES_PER_SLICE), { stream: true }))
        yield* Effect.yieldNow
      }
      parts.push(decoder.decode())
    } catch {
      return undefined
    }
    return parts.join("")
  })

/** The distinct ids a static cohort's CSV names, in file order, or PostHog's refusal on `csv`. */
export const distinctIdsOfCsv = (content: Uint8Array): Effect.Effect<ReadonlyArray<string>, ValidationError> =>
  Effect.gen(function*() {
    let text = yield* decoded(content)
    if (text === undefined) return yield* csvError(MESSAGES.encoding)
    // A byte-order mark (as spreadsheets write) is not part of the first header.
    if (text.startsWith("\ufeff")) text = text.slice(1)
    const ids: Array<string> = []
    let first: ReadonlyArray<string> | undefined
    let column = 0
    let taken = 0
    const take = (value: string | undefined) => {
      const id = value === undefined ? "" : pythonStrip(value)
      if (id === "") return undefined
      const tooLong = distinctIdError(id, `row ${taken} of the CSV`)
      if (tooLong !== undefined) return csvError(tooLong)
      ids.push(id)
      if (ids.length > MAX_MEMBERS_PER_REQUEST) return csvError(`A CSV may hold at most ${MAX_MEMBERS_PER_REQUEST.toLocaleString("en-US")} distinct IDs; upload the rest in another file.`)
      return undefined
    }
    try {
      for (const row of csvRows(text)) {
        if (row === PAUSE) {
          yield* Effect.yieldNow
          continue
        }
        taken++
        if (first === undefined) {
          if (row.length === 0) continue
          first = row
          const filled = row.filter((cell) => pythonStrip(cell) !== "")
          if (filled.length <= 1) {
            const kind = headerKind(row[0]!)
            if (kind === "person_id" || kind === "email") return yield* personsRefused(kind)
            // A one-column file is data from its first row, but for its header: a `distinct_id` heading names no one.
            if (kind !== "distinct_id") {
              const refused = take(row[0])
              if (refused !== undefined) return yield* refused
            }
          } else {
            const kinds = row.map(headerKind)
            const distinct = kinds.indexOf("distinct_id")
            if (distinct === -1) {
              const other = kinds.find((kind) => kind !== undefined)
              if (other === "person_id" || other === "email") return yield* personsRefused(other)
              const columns = row.filter((cell) => pythonStrip(cell) !== "")
              return yield* csvError(MESSAGES.missingColumn(columns.length === 0 ? "none" : namedColumns(columns)))
            }
            column = distinct
          }
          continue
        }
        if (row.length > column) {
          const refused = take(row[column])
          if (refused !== undefined) return yield* refused
        }
      }
    } catch (error) {
      if (error instanceof CsvFault) return yield* csvError(faultMessage(error, taken + 1))
      throw error
    }
    if (first === undefined) return yield* csvError(MESSAGES.empty)
    if (ids.length === 0) return yield* csvError(MESSAGES.noIds)
    return ids
  })
