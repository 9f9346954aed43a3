#!/usr/bin/env node
// The executable's first step, written so that any Node since 14 can run it: it checks the Node version
// before anything else is loaded. The rest (start.mjs) imports what only a newer Node has, which an older
// one would refuse while linking the module, before a line of it ran, with an error that names neither
// hedgerow nor the Node it needs.
import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The oldest Node that runs hedgerow (Effect 4 needs it), as in the root package's `engines`. */
const NEEDED = [22, 19]

const [major, minor] = process.versions.node.split(".").map(Number)
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  const bin = fileURLToPath(import.meta.url)
  // The project installs its own Node as node_modules/.bin/node; the nearest one up from here is it.
  let pinned
  for (let dir = dirname(bin); pinned === undefined; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", ".bin", "node"))) pinned = join(dir, "node_modules", ".bin", "node")
    else if (dirname(dir) === dir) break
  }
  const args = process.argv.slice(2).map((arg) => /^[\w./:=@,+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)
  console.error(
    `error: hedgerow needs Node ${NEEDED.join(".")} or newer, but ${process.execPath} is Node ${process.versions.node}; ` +
      (pinned === undefined
        ? "install a newer Node, or run `npm install` in the repository to get the one it pins, then use `npx hedgerow`"
        : `run the project's own Node: ${[resolve(pinned), bin, ...args].join(" ")} (or \`npx hedgerow\` in the repository)`)
  )
  process.exitCode = 1
} else {
  import("./start.mjs")
}
