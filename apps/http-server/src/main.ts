import { NodeRuntime } from "@effect/platform-node"
import { launch, serverTeardown } from "./launch.ts"

/** `npm start` inside this workspace; the CLI's `hedgerow serve` is the usual entry point. */
launch({
  port: Number(process.env["PORT"] ?? 8000),
  host: process.env["HOST"] ?? "127.0.0.1",
  store: { dataDir: process.env["HEDGEROW_DATA_DIR"] ?? ".hedgerow" }
}).pipe(NodeRuntime.runMain({ teardown: serverTeardown }))
