import type { LogSettings } from "@hedgerow/http-server"
import { Data, Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { startServerProcess } from "../targets/server-process.ts"

export class ServerStartFailed extends Data.TaggedError("ServerStartFailed")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/**
 * `hedgerow serve` on the store `storeEnv` selects (DATABASE_URL or HEDGEROW_DATA_DIR), stopped with the
 * scope; SIGKILL if it ignores SIGTERM for 10 s. It logs as the in-process server would: not at all
 * unless HEDGEROW_LOG_LEVEL asks.
 */
export const scopedServer = (storeEnv: Readonly<Record<string, string>>, log: LogSettings) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startServerProcess({ env: { ...storeEnv, HEDGEROW_LOG_LEVEL: log.level, HEDGEROW_LOG_FORMAT: log.format } }),
      catch: (error) => new ServerStartFailed({ reason: error instanceof Error ? error.message : String(error) })
    }),
    (server) =>
      Effect.promise(() => server.stop()).pipe(
        Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.promise(() => server.kill()) })
      )
  )

/** A new, empty directory, removed with the scope: the embedded store's data dir, or one holding it and logs. */
export const scratchDataDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(path.join(tmpdir(), "hedgerow-bench-"))),
  (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
)
