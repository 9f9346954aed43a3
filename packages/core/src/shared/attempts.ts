import { Throttled } from "./errors.ts"

/** Names tracked at most; past it the oldest windows go first, so a flood of names cannot grow the heap. */
const MAX_TRACKED = 100_000

interface Window {
  start: number
  count: number
}

/**
 * Counts events per name in fixed windows, in this process's memory: once a name has `limit` events in
 * its window, `refusal` says how long until the window ends.
 */
export const attemptCounter = (limit: number, windowMs: number) => {
  const windows = new Map<string, Window>()
  const current = (name: string, now: number) => {
    const window = windows.get(name)
    return window !== undefined && now - window.start < windowMs ? window : undefined
  }
  return {
    /** A 429 while `name` has used up its window, else undefined. */
    refusal: (name: string, now: number): Throttled | undefined => {
      const window = current(name, now)
      if (window === undefined || window.count < limit) return undefined
      return Throttled.after(Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)))
    },
    note: (name: string, now: number): void => {
      const window = current(name, now)
      if (window !== undefined) {
        window.count++
        return
      }
      windows.delete(name)
      while (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value!)
      windows.set(name, { start: now, count: 1 })
    }
  }
}
