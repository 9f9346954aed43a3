// The platform's modules one at a time: the package's index would also load its Redis client and all it needs.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Runtime from "effect/Runtime"
import { cli } from "./hedgerow.ts"

/**
 * Exit codes for `runMain`: a stop by SIGINT/SIGTERM after a clean shutdown is a success (0), not the
 * default 130, so supervisors do not count a deploy as a crash; a refused start (`hedgerow serve` sets
 * `process.exitCode`) keeps its own code.
 */
export const cleanStopTeardown: Runtime.Teardown = (exit, onExit) =>
  onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? Number(process.exitCode ?? 0) : 1)

cli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown: cleanStopTeardown }))
