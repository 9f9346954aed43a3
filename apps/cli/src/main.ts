import { VERSION } from "./version.ts"

// The executable. `hedgerow --version` is answered before effect/cli and the command tree load (they
// take over a tenth of a second); the line is the one effect/cli prints, as a test checks.
if (process.argv.length === 3 && process.argv[2] === "--version") console.log(`hedgerow v${VERSION}`)
else await import("./run.ts")
