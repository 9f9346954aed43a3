/** How long another process may go on honouring a grant after it was taken away. */
export const STALENESS_BOUND_MS = 1000

/** Milliseconds until `check` holds, polling every 20 ms; fails past the bound. */
export const within = async (check: () => Promise<boolean>, boundMs = STALENESS_BOUND_MS) => {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > boundMs) throw new Error(`still not true after ${boundMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return Date.now() - started
}
