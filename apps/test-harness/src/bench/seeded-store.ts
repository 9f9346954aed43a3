import { analyzeChangedTables, Hedgerow, type StoreOptions } from "@hedgerow/store"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { bootstrapTenant } from "./hedgerow-target.ts"
import { seedFlags } from "./seed-flags.ts"

/**
 * A new store (a data dir, or a database on a PostgreSQL server) bootstrapped and seeded with `flags`
 * flags from this process through the store's own layer, which is closed again (and a data dir's lock
 * released) before a server starts on it. Gives the tenant.
 */
export const seededStore = (store: StoreOptions, flags: number) =>
  Effect.scoped(Effect.gen(function*() {
    const services = yield* Layer.build(Hedgerow.layer({ ...store, poolSize: 2 }))
    return yield* Effect.gen(function*() {
      const tenant = yield* bootstrapTenant
      yield* seedFlags(tenant, 0, flags)
      // As a server would after an import, once its analyzer (or PostgreSQL's autovacuum) came round to it.
      yield* store.databaseUrl === undefined ? analyzeChangedTables : Effect.asVoid((yield* SqlClient.SqlClient)`ANALYZE`)
      return tenant
    }).pipe(Effect.provideContext(services))
  }))
