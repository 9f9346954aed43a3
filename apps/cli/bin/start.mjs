// The executable after its Node version check (hedgerow.mjs): runs the compiled and bundled CLI. `npm
// install` builds dist/ (the root `prepare` script) and `npm start` rebuilds what changed, so nothing here
// compiles TypeScript.
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
// docs/decisions.md ("The process settings") has what each was measured to change.
// - glibc's malloc gives an allocation over 128 KiB a mapping of its own, returned whole when freed,
//   until the first such free raises that threshold: a server's answers of a few hundred KiB then come
//   from the main heap, which fragments and grows by steps it never gives back. MALLOC_MMAP_THRESHOLD_
//   fixes the threshold.
// - V8's memory-saving mode (below) collects the old generation whenever it has grown a small step past
//   its live size, which under load on a small server is several times a second. Below an initial old
//   generation set on the command line V8 makes no full collection to keep the heap small, so a small
//   server collects rarely, and a large one, past it, stays near its live size.
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

// Node's on-disk code cache spares parsing the bundle's modules again on every run. It also keeps every
// module's cache in memory for the life of the process, which a long-running `serve` would hold for a
// saving made once, at its start.
if (!serving) enableCompileCache()
// A flag list's answer is a string large enough for V8 to put straight into the old generation; by
// default the heap may then grow by half and more before a full collection, so a busy server's resident
// memory fills with dead answers. In V8's memory-saving mode the heap grows by less between full
// collections, and by smaller steps: it stays near its live size. It is paid in CPU where it collects
// often, which the initial old generation (above) keeps to servers past it.
setFlagsFromString("--optimize-for-size")
// V8 doubles the young generation whenever objects outlive a scavenge, which a server's requests in
// flight always do, so it grows to its largest, all of it resident. Its cap can only be set on node's
// command line, but its growth can be set here: it stays at its first size, which costs a request no
// more CPU.
setFlagsFromString("--semi-space-growth-factor=1")
// The embedded store's WebAssembly runs on V8's baseline compiler only. Its optimizing tier compiles the
// hot functions of Postgres on background threads whose allocator keeps the compilations' memory for
// good, while a statement's time goes to the JavaScript around it rather than to the WebAssembly.
setFlagsFromString("--liftoff-only")
// V8 optimizes a function only after some thousands of calls, and runs it until then on its interpreter
// and baseline compiler, several times slower, so a new server answers its first seconds slowly. A server
// has TurboFan optimize after a thousand calls instead (docs/decisions.md, "The process settings").
if (serving) setFlagsFromString("--invocation-count-for-turbofan=1000")
import("../dist/bundle/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/bundle/main.js")) throw error
  console.error("error: hedgerow is not built yet; run `npm run build` in the repository")
  process.exitCode = 1
})
