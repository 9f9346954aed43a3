import { assert, it } from "@effect/vitest"
import { Bootstrap } from "@hedgerow/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Hedgerow, migrations } from "../src/index.ts"

const open = (dataDir: string) => Hedgerow.layer({ dataDir })

it.live("a data dir keeps its data across restarts and migrates only once", () =>
  Effect.gen(function*() {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-store-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    const first = yield* Bootstrap.use((b) => b.run({})).pipe(Effect.provide(open(dataDir), { local: true }))
    const again = yield* Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const migrations = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM hedgerow_migrations`
      const bootstrapped = yield* Bootstrap.use((b) => b.isBootstrapped)
      const refused = yield* Bootstrap.use((b) => b.run({})).pipe(Effect.flip)
      return { migrations: migrations[0]!.n, bootstrapped, refused: refused._tag }
    }).pipe(Effect.provide(open(dataDir), { local: true }))
    assert.match(first.personal_api_key, /^phx_/)
    assert.deepStrictEqual(again, { migrations: Object.keys(migrations).length, bootstrapped: true, refused: "AlreadyBootstrapped" })
  }).pipe(Effect.scoped), 60_000)
