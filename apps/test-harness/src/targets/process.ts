import { HedgerowServices } from "@hedgerow/store"
import { ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { createWorld } from "../world.ts"
import { httpTarget } from "./http.ts"
import { onLocalNetwork } from "./in-process.ts"
import { startServerProcess } from "./server-process.ts"

/**
 * A separate server process reached only by URL, as any deployment would be: the operator fixtures are
 * written to a data dir first (the store admits one process at a time), then `hedgerow serve`, what `npm start` runs,
 * serves that dir on a free port, configured through its environment with the harness's DNS and mail servers.
 */
export const prepareProcess = () => onLocalNetwork(async (local) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-conformance-"))
  const runtime = ManagedRuntime.make(HedgerowServices({ dataDir }))
  const world = await runtime.runPromise(createWorld)
  await runtime.dispose()

  const server = await startServerProcess({ env: { ...local.env, HEDGEROW_DATA_DIR: dataDir } })
  const close = async () => {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { target: httpTarget("process", server.url), world, close }
})
