import { Hedgerow, type StoreOptions } from "@hedgerow/store"
import { ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import type { LocalNetwork } from "../network/index.ts"
import { createWorld } from "../world.ts"
import { httpTarget } from "./http.ts"
import { onLocalNetwork } from "./in-process.ts"
import { closingAfter, type TargetStore } from "./prepared.ts"
import { startServerProcess } from "./server-process.ts"

/**
 * Writes the operator fixtures into `options`' store from this process, closes it, does what `between`
 * does with it, then starts `hedgerow serve` on the store `env` names, configured through it and the
 * harness's DNS and mail servers.
 */
export const serve = async (
  local: LocalNetwork,
  options: StoreOptions,
  env: Readonly<Record<string, string>>,
  between: () => Promise<void> = async () => {}
) => {
  const runtime = ManagedRuntime.make(Hedgerow.layer(options))
  const world = await runtime.runPromise(createWorld).finally(() => runtime.dispose())
  await between()
  const server = await startServerProcess({ env: { ...local.env, ...env } })
  const close = async () => {
    await server.stop()
  }
  return { target: httpTarget("process", server.url), world, close }
}

/**
 * A separate server process reached only by URL, as any deployment would be: what `npm start` runs,
 * on a free port. On PostgreSQL (`store.databaseUrl`) it is given DATABASE_URL; on PGlite the fixtures go to
 * a new data dir first (the embedded store admits one process at a time), which it then serves.
 */
export const prepareProcess = (store: TargetStore = {}) =>
  onLocalNetwork(async (local) => {
    const databaseUrl = store.databaseUrl
    if (databaseUrl !== undefined) return serve(local, { databaseUrl }, { DATABASE_URL: databaseUrl })
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-conformance-"))
    return closingAfter(
      async () => rmSync(dataDir, { recursive: true, force: true }),
      () => serve(local, { dataDir }, { HEDGEROW_DATA_DIR: dataDir })
    )
  })
