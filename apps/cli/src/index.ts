/** The `hedgerow` command tree, for embedding or running in-process; `main.ts` is the executable. */
export { cli, hedgerow, runHedgerow, VERSION } from "./hedgerow.ts"
export { describeFailure, Reported } from "./output.ts"
