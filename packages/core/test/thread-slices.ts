/**
 * The event loop's thread's CPU time between two of its turns while `work` runs, in ms: what the work
 * did in each slice, whatever else the machine does (a clock would count a pause of the whole process).
 */
export const threadSlices = async <A>(work: () => Promise<A>): Promise<{ readonly result: A; readonly slices: ReadonlyArray<number> }> => {
  const slices: Array<number> = []
  let last = process.threadCpuUsage()
  const timer = setInterval(() => {
    const spent = process.threadCpuUsage(last)
    slices.push((spent.user + spent.system) / 1000)
    last = process.threadCpuUsage()
  }, 1)
  try {
    const result = await work()
    const spent = process.threadCpuUsage(last)
    slices.push((spent.user + spent.system) / 1000)
    return { result, slices }
  } finally {
    clearInterval(timer)
  }
}

/** The 95th percentile of the slices. */
export const p95 = (slices: ReadonlyArray<number>): number => [...slices].sort((a, b) => a - b)[Math.floor(slices.length * 0.95)]!

/** The CPU time the thread has spent so far, in ms: a machine busy with other work does not move it. */
export const threadMillis = (): number => {
  const spent = process.threadCpuUsage()
  return (spent.user + spent.system) / 1000
}

/** `work`'s result and the CPU time the thread spent on it, in ms. */
export const threadTimed = <A>(work: () => A): readonly [A, number] => {
  const before = threadMillis()
  const result = work()
  return [result, threadMillis() - before]
}
