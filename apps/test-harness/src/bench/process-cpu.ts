import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

/**
 * The fields of a line of /proc/<pid>/stat from field 3 on. The command name (field 2) is in parentheses
 * and may hold spaces, so they are counted from its closing parenthesis: field n is at index n - 3.
 */
const fieldsAfterName = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ")

/** The sum of the fields at these indexes, when each is a whole number. */
const ticksAt = (fields: ReadonlyArray<string>, indexes: ReadonlyArray<number>): number | undefined => {
  const ticks = indexes.map((i) => Number(fields[i]))
  return ticks.every(Number.isInteger) ? ticks.reduce((a, b) => a + b, 0) : undefined
}

/** User plus system CPU time, in clock ticks, from a line of /proc/<pid>/stat: utime and stime, fields 14 and 15. */
export const cpuTicksOf = (stat: string): number | undefined => ticksAt(fieldsAfterName(stat), [11, 12])

let ticksPerSecond: number | undefined

/** The kernel's clock ticks per second (USER_HZ), asked once; 100 on nearly every Linux. */
const clockTicks = () => {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
    } catch {
      ticksPerSecond = 100
    }
  }
  return ticksPerSecond
}

/**
 * Seconds of CPU another process has used so far, its own threads included (not its children's); undefined
 * where there is no /proc (macOS) or the process is gone, which the report then shows as not measured.
 */
export const processCpuSeconds = (pid: number): number | undefined => {
  try {
    const ticks = cpuTicksOf(readFileSync(`/proc/${pid}/stat`, "utf8"))
    return ticks === undefined ? undefined : ticks / clockTicks()
  } catch {
    return undefined
  }
}

/**
 * Seconds of CPU a process and every process under it have used so far: each one's own user and system
 * time, and the time of the children it has waited for once they exited (cutime and cstime, fields 16
 * and 17), so a child that ends between two readings is counted at its parent's. Its descendants are
 * found through the parent pid of every process in /proc (field 4). Undefined where there is no /proc or
 * the process is gone.
 */
export const processTreeCpuSeconds = (rootPid: number): number | undefined => {
  const ticksOf = new Map<number, number | undefined>()
  const childrenOf = new Map<number, Array<number>>()
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue
      const pid = Number(entry)
      let fields: ReadonlyArray<string>
      try {
        fields = fieldsAfterName(readFileSync(`/proc/${pid}/stat`, "utf8"))
      } catch {
        // Gone since the directory was listed: its time is its parent's now.
        continue
      }
      ticksOf.set(pid, ticksAt(fields, [11, 12, 13, 14]))
      const parent = Number(fields[1])
      const siblings = childrenOf.get(parent)
      if (siblings === undefined) childrenOf.set(parent, [pid])
      else siblings.push(pid)
    }
  } catch {
    return undefined
  }
  if (ticksOf.get(rootPid) === undefined) return undefined
  let ticks = 0
  const pending = [rootPid]
  while (pending.length > 0) {
    const pid = pending.pop()!
    ticks += ticksOf.get(pid) ?? 0
    pending.push(...(childrenOf.get(pid) ?? []))
  }
  return ticks / clockTicks()
}
