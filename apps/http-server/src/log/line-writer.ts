/** Where finished lines go, each with its newline. */
export type LineSink = (text: string) => void

/** Writes `value` as one line of UTF-8, its newline included, into `into` from `at`; returns where it ended. */
export type LineEncoder<A> = (value: A, into: Buffer, at: number) => number

export interface LineWriter {
  readonly write: LineSink
  /** Writes the line `encode` makes of `value` in at most `maxBytes` bytes. */
  readonly writeEncoded: <A>(encode: LineEncoder<A>, value: A, maxBytes: number) => void
  /** Hands over what is pending now. */
  readonly flush: () => void
}

/** A writer that holds lines for a while, until it is closed. */
export interface HeldWriter extends LineWriter {
  /** Hands over what is pending, and every line written from then on as it comes. */
  readonly close: () => void
}

/** Past this many pending characters the lines go out at once instead of at the end of the turn. */
const MAX_PENDING = 64 * 1024

/**
 * Collects lines and hands them to `sink` once per turn of the event loop, so that a caller's sink is
 * called once for many requests instead of once each; nothing waits for it.
 */
export const batchedLineWriter = (sink: LineSink): LineWriter => {
  let pending = ""
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === "") return
    const text = pending
    pending = ""
    sink(text)
  }
  const write = (line: string) => {
    pending += line
    if (pending.length >= MAX_PENDING) flush()
    else if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
  const writeEncoded = <A>(encode: LineEncoder<A>, value: A, maxBytes: number) => {
    const bytes = Buffer.allocUnsafe(maxBytes)
    write(bytes.toString("utf8", 0, encode(value, bytes, 0)))
  }
  return { write, writeEncoded, flush }
}

/** Where a held writer's bytes go. */
export type ByteSink = (bytes: Uint8Array) => void

/** The size of a held writer's block: lines go out when the next would not fit. */
export const BLOCK_BYTES = 64 * 1024

/**
 * Puts each line at once into a block of bytes (a string encoded, or the bytes an encoder writes there)
 * and hands the bytes to `sink` `holdMillis` after the block's first line, or when it is full. A line is
 * kept as bytes outside V8's heap, not as a string the young generation would copy for as long as it waits. What is handed over is `sink`'s to keep (a stdout
 * that cannot take it at once queues it): a block at least a quarter full goes whole and a new one is
 * made, a smaller batch is copied out so that a quiet server's queue holds its lines, not its blocks.
 * Once closed, the writer hands each line over as it comes.
 */
export const heldByteWriter = (sink: ByteSink, holdMillis: number): HeldWriter => {
  let block = Buffer.allocUnsafeSlow(BLOCK_BYTES)
  let used = 0
  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined = undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (used === 0) return
    let bytes: Uint8Array
    if (used >= BLOCK_BYTES / 4) {
      bytes = block.subarray(0, used)
      block = Buffer.allocUnsafeSlow(BLOCK_BYTES)
    } else {
      bytes = Buffer.copyBytesFrom(block, 0, used)
    }
    used = 0
    sink(bytes)
  }
  const written = () => {
    if (closed) flush()
    // The timer does not keep the process alive: whoever stops the server closes the writer (see server-log.ts).
    else timer ??= setTimeout(flush, holdMillis).unref()
  }
  const write = (line: string) => {
    // A UTF-16 unit takes at most three bytes in UTF-8; only a line that might not fit is measured.
    if (used + line.length * 3 > BLOCK_BYTES) {
      const bytes = Buffer.byteLength(line)
      if (used + bytes > BLOCK_BYTES) flush()
      if (bytes > BLOCK_BYTES) return sink(Buffer.from(line))
    }
    used += block.write(line, used)
    written()
  }
  const writeEncoded = <A>(encode: LineEncoder<A>, value: A, maxBytes: number) => {
    if (used + maxBytes > BLOCK_BYTES) flush()
    if (maxBytes > BLOCK_BYTES) {
      const bytes = Buffer.allocUnsafe(maxBytes)
      return sink(bytes.subarray(0, encode(value, bytes, 0)))
    }
    used = encode(value, block, used)
    written()
  }
  const close = () => {
    closed = true
    flush()
  }
  return { write, writeEncoded, flush, close }
}

/**
 * stdout. Node writes to a file at once; to a pipe or a socket it writes what the reader has room for
 * and queues the rest in the process.
 */
export const stdoutSink: ByteSink = (bytes) => {
  process.stdout.write(bytes)
}
