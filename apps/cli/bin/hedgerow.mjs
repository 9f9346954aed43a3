#!/usr/bin/env node
// Runs the compiled CLI: `npm install` builds dist/ (the root `prepare` script) and `npm start` rebuilds
// what changed, so nothing here compiles TypeScript. Node's on-disk code cache spares re-parsing the
// few hundred modules of effect/cli on every run (about a fifth of `--help`'s time).
import { enableCompileCache } from "node:module"
import { setFlagsFromString } from "node:v8"

enableCompileCache()
// A flag list's answer is a string of over 128 KiB, which V8 puts straight into the old generation; by
// default the heap may then grow by half and more before a full collection, so a busy server's resident
// memory climbed by hundreds of MiB of dead answers. Growing by a tenth keeps it near its live size, at
// no measurable cost in throughput.
setFlagsFromString("--heap-growing-percent=10")
import("../dist/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/main.js")) throw error
  console.error("error: hedgerow is not built yet; run `npm run build` in the repository")
  process.exitCode = 1
})
