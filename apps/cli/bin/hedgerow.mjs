#!/usr/bin/env node
// Runs the compiled CLI: `npm install` builds dist/ (the root `prepare` script) and `npm start` rebuilds
// what changed, so nothing here compiles TypeScript. Node's on-disk code cache spares re-parsing the
// few hundred modules of effect/cli on every run (about a fifth of `--help`'s time).
import { enableCompileCache } from "node:module"

enableCompileCache()
import("../dist/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/main.js")) throw error
  console.error("error: hedgerow is not built yet; run `npm run build` in the repository")
  process.exitCode = 1
})
