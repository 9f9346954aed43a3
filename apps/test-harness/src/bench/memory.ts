import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

/** Memory of one process that serves Hedgerow, read right after a measured run. */
export interface ProcessMemory {
  /** Which process: "this process", or a server process and its pid. */
  readonly label: string
  readonly rssBytes: number
  /** Only known for this process; a child's heap is not visible from outside. */
  readonly heapUsedBytes?: number | undefined
}

/** The bench process itself, which hosts Hedgerow when it runs in-process. */
export const thisProcessMemory = (): ProcessMemory => {
  const { rss, heapUsed } = process.memoryUsage()
  return { label: "this process", rssBytes: rss, heapUsedBytes: heapUsed }
}

/**
 * Resident memory of another process: VmRSS from /proc on Linux, `ps` elsewhere; 0 once it is gone,
 * which the report then shows rather than failing the run.
 */
export const residentBytes = (pid: number): number => {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    if (match !== null) return Number(match[1]) * 1024
  } catch {
    // No /proc (macOS): ask ps below.
  }
  try {
    const kibibytes = Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim())
    return Number.isFinite(kibibytes) ? kibibytes * 1024 : 0
  } catch {
    return 0
  }
}
