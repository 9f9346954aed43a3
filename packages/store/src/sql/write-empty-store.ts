import { Effect } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { migrateDatabase } from "../migrations/index.ts"
import { emptyStoreName } from "./empty-store.ts"
import { makePgliteClient, openPglite } from "./pglite-client.ts"

/**
 * Makes the empty store (empty-store.ts) in `dir`: a new database in memory made by initdb, migrated,
 * checkpointed so that a copy has next to no log to replay, and archived.
 */
export const writeEmptyStore = (dir: string) =>
  Effect.scoped(Effect.gen(function*() {
    const db = yield* openPglite(undefined)
    yield* Effect.provideServiceEffect(migrateDatabase, SqlClient.SqlClient, makePgliteClient(db))
    const archive = yield* Effect.promise(async () => {
      await db.exec("CHECKPOINT")
      return new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer())
    })
    const file = path.join(dir, emptyStoreName())
    mkdirSync(dir, { recursive: true })
    writeFileSync(file, archive)
    return file
  })).pipe(Effect.provide(Reactivity.layer))
