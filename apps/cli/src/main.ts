import { VERSION } from "./version.ts"

// The executable. `hedgerow --version` is answered before effect/cli and the command tree load, which
// is most of what any other command takes to start; the line is the one effect/cli prints, as a test
// checks.
if (process.argv.length === 3 && process.argv[2] === "--version") console.log(`hedgerow v${VERSION}`)
else await import("./run.ts")
