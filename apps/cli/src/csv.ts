/**
 * A small RFC 4180 reader: comma-separated fields, double-quoted fields that may hold commas, quotes
 * (doubled) and line breaks, LF, CRLF or CR line ends, an optional byte-order mark. Blank lines are skipped.
 * Anything else malformed is an error naming the line it starts on.
 */

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  readonly line: number
  readonly fields: ReadonlyArray<string>
}

export class CsvError extends Error {
  readonly line: number
  readonly reason: string
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`)
    this.line = line
    this.reason = reason
  }
}

export const parseCsv = (text: string): ReadonlyArray<CsvRecord> => {
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text
  const records: Array<CsvRecord> = []
  let fields: Array<string> = []
  let field = ""
  let line = 1
  let start = 1
  let quoted = false
  // After a closing quote only a separator or a line end may follow.
  let closed = false
  let i = 0

  const endField = () => {
    fields.push(field)
    field = ""
    closed = false
  }
  const endRecord = () => {
    endField()
    records.push({ line: start, fields })
    fields = []
  }

  while (i < input.length) {
    const char = input[i]!
    if (quoted) {
      if (char === "\"") {
        if (input[i + 1] === "\"") {
          field += "\""
          i += 2
          continue
        }
        quoted = false
        closed = true
      } else {
        // A line break inside a field counts like one outside it, CR-only ones included.
        if (char === "\n" || (char === "\r" && input[i + 1] !== "\n")) line++
        field += char
      }
      i++
      continue
    }
    if (char === ",") {
      endField()
    } else if (char === "\n" || char === "\r") {
      // A line with nothing on it is not a record.
      if (fields.length > 0 || field !== "" || closed) endRecord()
      if (char === "\r" && input[i + 1] === "\n") i++
      line++
      start = line
    } else if (closed) {
      throw new CsvError(start, "text after a closing quote; quote the whole field")
    } else if (char === "\"") {
      if (field !== "") throw new CsvError(start, "a quote inside an unquoted field; quote the whole field and double the quote")
      quoted = true
    } else {
      field += char
    }
    i++
  }
  if (quoted) throw new CsvError(start, "a quoted field is never closed")
  if (fields.length > 0 || field !== "" || closed) endRecord()
  return records
}
