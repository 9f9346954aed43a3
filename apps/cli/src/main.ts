import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { cleanStopTeardown } from "@hedgerow/http-server"
import { Effect } from "effect"
import { cli } from "./hedgerow.ts"

// `hedgerow serve` stopped by SIGINT/SIGTERM after a clean shutdown exits 0, not 130.
cli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown: cleanStopTeardown }))
