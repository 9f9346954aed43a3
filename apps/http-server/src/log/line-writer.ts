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
 * Collects lines and hands them to `sink` once per turn of the event loop, so that a busy server makes
 * one write to stdout for many requests instead of one each; nothing waits for the write.
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

/** stdout. Node writes to files and pipes synchronously on Linux, so a batch is out once this returns. */
export const stdoutSink: LineSink = (text) => {
  process.stdout.write(text)
}
