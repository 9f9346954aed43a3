/**
 * Python's csv reader (the default dialect: commas, double quotes, a quoted field going on to the next
 * line, no strict mode) over the lines Python's `splitlines` cuts text into, one row at a time, an empty
 * line an empty row. It hands back `PAUSE` after every slice of characters read, blank lines and the
 * middle of a line included, so that its reader can let the event loop turn; and it refuses a row past
 * generous bounds before reading it all.
 */

/** Handed back between two rows, or inside one, after every `CHARACTERS_PER_SLICE` characters read. */
export const PAUSE = Symbol("pause")

/** Characters read between two pauses: a slice holds the event loop only briefly. */
export const CHARACTERS_PER_SLICE = 32_768

/** The longest field Python's csv reader takes by default, which bounds PostHog's reading too. */
const FIELD_LIMIT = 131_072

/**
 * A row's characters, a quoted field's line breaks included: real files hold ids, a few columns beside
 * them at most, and this is far past any such row.
 */
export const MAX_ROW_LENGTH = 1_048_576

/** A row's columns: PostHog's files have one to a few, an export of persons some dozens. */
export const MAX_COLUMNS = 1000

/** Python's `str.splitlines` boundaries. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g

/** Why the text cannot be read: not CSV as Python reads it, or a row past a bound. */
export class CsvFault {
  readonly kind: "format" | "length" | "columns"
  constructor(kind: CsvFault["kind"]) {
    this.kind = kind
  }
}

const QUOTE = 0x22
const COMMA = 0x2c
const NUL = 0x00

type State = "start" | "plain" | "quoted" | "afterQuote"

const EMPTY_ROW: ReadonlyArray<string> = []

export function* csvRows(text: string): Generator<ReadonlyArray<string> | typeof PAUSE> {
  // A pattern of its own: readings of two uploads take turns on the event loop.
  const lineBreak = new RegExp(LINE_BREAK.source, "g")
  let start = 0
  let row: Array<string> = []
  // The field being read, in pieces: runs of the line are sliced, not copied a character at a time.
  const pieces: Array<string> = []
  let fieldLength = 0
  let state: State = "start"
  let inRecord = false
  let rowLength = 0
  // Characters read since the last pause.
  let read = 0
  const save = () => {
    if (row.length === MAX_COLUMNS) throw new CsvFault("columns")
    row.push(pieces.length === 1 ? pieces[0]! : pieces.join(""))
    pieces.length = 0
    fieldLength = 0
  }
  const add = (piece: string) => {
    if (piece === "") return
    pieces.push(piece)
    fieldLength += piece.length
  }
  while (start < text.length || (start === text.length && inRecord)) {
    if (start === text.length) {
      // The data ended inside a quoted field: Python keeps what it read.
      save()
      yield row
      return
    }
    // The next line break is looked for no further than the row may go (and one more, for a "\r\n").
    const window = text.slice(start, start + MAX_ROW_LENGTH - rowLength + 2)
    lineBreak.lastIndex = 0
    const found = lineBreak.exec(window)
    const end = found === null ? start + window.length : start + found.index
    const next = found === null ? end : end + found[0].length
    if (end - start + rowLength > MAX_ROW_LENGTH) throw new CsvFault("length")
    const line = text.slice(start, end)
    const from = start
    start = next
    if (!inRecord && line === "") {
      read += next - from
      yield EMPTY_ROW
    } else {
      inRecord = true
      rowLength += next - from
      let run = 0
      let counted = 0
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i)
        if (c === NUL) throw new CsvFault("format")
        switch (state) {
          case "start":
            if (c === QUOTE) {
              state = "quoted"
              run = i + 1
            } else if (c === COMMA) {
              save()
            } else {
              state = "plain"
              run = i
            }
            break
          case "plain":
            if (c === COMMA) {
              add(line.slice(run, i))
              save()
              state = "start"
            }
            break
          case "quoted":
            if (c === QUOTE) {
              add(line.slice(run, i))
              state = "afterQuote"
            }
            break
          case "afterQuote":
            // A second quote is a quote; a comma ends the field; anything else goes on unquoted.
            if (c === COMMA) {
              save()
              state = "start"
            } else {
              state = c === QUOTE ? "quoted" : "plain"
              run = i
            }
            break
        }
        if ((state === "plain" || state === "quoted") && fieldLength + i + 1 - run > FIELD_LIMIT) throw new CsvFault("format")
        if ((i & 0xfff) === 0xfff) {
          read += i - counted
          counted = i
          if (read >= CHARACTERS_PER_SLICE) {
            read = 0
            yield PAUSE
          }
        }
      }
      read += next - from - counted
      if (state === "plain" || state === "quoted") add(line.slice(run))
      // A quoted field goes on to the next line, which Python reads without its line break.
      if (state !== "quoted") {
        save()
        yield row
        row = []
        state = "start"
        inRecord = false
        rowLength = 0
      }
    }
    if (read >= CHARACTERS_PER_SLICE) {
      read = 0
      yield PAUSE
    }
  }
}
