import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

/**
 * User plus system CPU time, in clock ticks, from a line of /proc/<pid>/stat. The command name (field 2)
 * is in parentheses and may hold spaces, so fields are counted from its closing parenthesis: utime and
 * stime are fields 14 and 15, the 12th and 13th after it.
 */
export const cpuTicksOf = (stat: string): number | undefined => {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  return Number.isInteger(utime) && Number.isInteger(stime) ? utime + stime : undefined
}

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
