/** Where finished lines go, each with its newline. */
export type LineSink = (text: string) => void

export interface LineWriter {
  readonly write: LineSink
  /** Hands over what is pending now. */
  readonly flush: () => void
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
  return { write, flush }
}

/** Where a held writer's bytes go. */
export type ByteSink = (bytes: Uint8Array) => void

/** The size of a held writer's block: lines go out when the next would not fit. */
export const BLOCK_BYTES = 64 * 1024

/**
 * Encodes each line at once into a block of bytes and hands the block to `sink` `holdMillis` after its
 * first line, or when it is full. A line is kept as bytes outside V8's heap, not as a string the young
 * generation would copy for as long as it waits. Each block is handed over for good: `sink` may keep it.
 */
export const heldByteWriter = (sink: ByteSink, holdMillis: number): LineWriter => {
  let block = Buffer.allocUnsafeSlow(BLOCK_BYTES)
  let used = 0
  let timer: ReturnType<typeof setTimeout> | undefined = undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (used === 0) return
    const bytes = block.subarray(0, used)
    block = Buffer.allocUnsafeSlow(BLOCK_BYTES)
    used = 0
    sink(bytes)
  }
  const write = (line: string) => {
    // A UTF-16 unit takes at most three bytes in UTF-8; only a line that might not fit is measured.
    if (used + line.length * 3 > BLOCK_BYTES) {
      const bytes = Buffer.byteLength(line)
      if (used + bytes > BLOCK_BYTES) flush()
      if (bytes > BLOCK_BYTES) return sink(Buffer.from(line))
    }
    used += block.write(line, used)
    // The timer does not keep the process alive: whoever stops the server flushes (see server-log.ts).
    timer ??= setTimeout(flush, holdMillis).unref()
  }
  return { write, flush }
}

/** stdout. Node writes to files and pipes synchronously on Linux, so a batch is out once this returns. */
export const stdoutSink: ByteSink = (bytes) => {
  process.stdout.write(bytes)
}
