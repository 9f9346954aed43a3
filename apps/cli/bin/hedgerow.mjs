#!/usr/bin/env node
// Runs the compiled and bundled CLI: `npm install` builds dist/ (the root `prepare` script) and `npm start`
// rebuilds what changed, so nothing here compiles TypeScript.
import { accessSync, constants } from "node:fs"
import { enableCompileCache } from "node:module"
import { setFlagsFromString } from "node:v8"

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The global flags of effect's CLI that take a value, which may come as the next argument. */
const VALUED_GLOBAL_FLAGS = new Set(["--log-level", "--completions"])

/** The subcommand: the first argument that is neither a flag nor a global flag's value. */
const subcommand = (args) => {
  for (let i = 0; i < args.length; i++) {
    if (VALUED_GLOBAL_FLAGS.has(args[i])) i++
    else if (!args[i].startsWith("-")) return args[i]
  }
  return undefined
}
const serving = subcommand(process.argv.slice(2)) === "serve"

// Two settings of a server can only be made as its process starts, so a server starts again with them,
// in place (same pid, stdio and signals), on Linux where Node's executable can be run again (Node ends
// the process when an exec fails rather than returning). Either one the operator already gave is kept.
// - glibc's malloc gives an allocation over 128 KiB a mapping of its own, returned whole when freed,
//   until the first such free raises that threshold (up to 32 MiB): a server's answers of a few hundred
//   KiB then come from the main heap, which fragments and grows by steps it never gives back (a steady
//   load's resident memory rose 10 to 15 MiB at once, minutes in). MALLOC_MMAP_THRESHOLD_ fixes it.
// - V8's memory-saving mode (below) collects the old generation whenever it has grown 2 MiB past its
//   live size: with the 30 MiB a small project's server keeps, a `/flags` load ran a full collection
//   every 150 ms and spent a fifth of its time collecting (490 µs of server CPU per request, 330 µs with
//   V8's defaults). Below an initial old generation set on the command line V8 makes no full collection
//   to keep the heap small, so a small server collects rarely (370 µs) and a large one, past it, stays
//   near its live size as before.
const INITIAL_OLD_SPACE = "--initial-old-space-size=64"
// `--initial-heap-size` sets the initial old generation too, and an added `--initial-old-space-size`
// would overrule it.
const heapFlagGiven = process.execArgv.some((arg) => /^--initial[-_](old[-_]space|heap)[-_]size/.test(arg))
if (
  serving && process.platform === "linux" && (process.env.MALLOC_MMAP_THRESHOLD_ === undefined || !heapFlagGiven) &&
  typeof process.execve === "function" && executable(process.execPath)
) {
  const flags = heapFlagGiven ? process.execArgv : [...process.execArgv, INITIAL_OLD_SPACE]
  process.execve(process.execPath, [process.execPath, ...flags, ...process.argv.slice(1)], {
    MALLOC_MMAP_THRESHOLD_: "131072",
    ...process.env
  })
}

// Node's on-disk code cache spares re-parsing the few hundred modules of effect/cli on every run (about a
// fifth of `--help`'s time). It also keeps every module's cache in memory for the life of the process,
// some 25 MiB for a server, which a long-running `serve` does not win back (a tenth of a second's start).
if (!serving) enableCompileCache()
// A flag list's answer is a string of over 128 KiB, which V8 puts straight into the old generation; by
// default the heap may then grow by half and more before a full collection, so a busy server's resident
// memory climbed by hundreds of MiB of dead answers. In V8's memory-saving mode the heap grows by at most
// 30 % between full collections, and by steps of 2 MiB rather than 8: it stays near its live size, and
// a burst of writes with MB-sized bodies leaves some 30 MiB less garbage resident than a fixed 10 %
// growth did. It is paid in CPU where it collects often: without the initial old generation (above), a
// small server's reads cost some 15 % more than under V8's defaults and `/flags` half as much again;
// writes of MB-sized bodies, which make the most garbage, take a sixth longer.
setFlagsFromString("--optimize-for-size")
// V8 doubles the young generation whenever objects outlive a scavenge, which a server's requests in
// flight always do, so it grew to its largest (32 MiB, all resident); its cap can only be set on node's
// command line, but its growth here. Kept at its first 2 MiB, a server's memory is 40 MiB less and a
// request costs no more CPU (a flag list somewhat less).
setFlagsFromString("--semi-space-growth-factor=1")
// The embedded store's WebAssembly runs on V8's baseline compiler only. Its optimizing tier compiled the
// hot functions of Postgres on background threads whose allocator kept some 60 MiB of the compilations'
// memory for good; a statement costs the same CPU either way, its time going to the JavaScript around it.
setFlagsFromString("--liftoff-only")
import("../dist/bundle/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/bundle/main.js")) throw error
  console.error("error: hedgerow is not built yet; run `npm run build` in the repository")
  process.exitCode = 1
})
