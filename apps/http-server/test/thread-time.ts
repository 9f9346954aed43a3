/**
 * Time measured as the CPU the event loop's thread spends, in ms: a machine busy with other work slows a
 * clock's reading of a test, not this one's.
 */
export const threadMillis = (): number => {
  const spent = process.threadCpuUsage()
  return (spent.user + spent.system) / 1000
}

/** `work`'s result and the thread's CPU time it took. */
export const cpuMillisOf = <A>(work: () => A): { readonly result: A; readonly millis: number } => {
  const before = threadMillis()
  const result = work()
  return { result, millis: threadMillis() - before }
}

/**
 * Watches the event loop's turns from now on: `longest()` is the most CPU the thread spent between two
 * turns, which is how long one piece of work held the loop; `stop()` ends the watch.
 */
export const watchLoop = () => {
  let longest = 0
  let last = threadMillis()
  const timer = setInterval(() => {
    const now = threadMillis()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  return { longest: () => Math.max(longest, threadMillis() - last), stop: () => clearInterval(timer) }
}
