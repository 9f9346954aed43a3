import { Effect, Layer } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import initial from "./0001_initial.ts"
import featureFlags from "./0002_feature_flags.ts"

/** Forward-only, versioned migrations, recorded in `hedgerow_migrations` and applied at start. */
export const migrations = { "0001_initial": initial, "0002_feature_flags": featureFlags }

const migrate = Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "hedgerow_migrations" })

/**
 * Applies what is missing, in one transaction under an advisory lock: when several servers start at
 * once on one PostgreSQL database, the first migrates while the others wait, then find nothing to do.
 * (The migrator's own table lock cannot cover the creation of that table, nor the first migration.)
 */
export const MigrationsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.andThen(sql`SELECT pg_advisory_xact_lock(hashtext('hedgerow:migrations'))`, migrate)
    )
  }).pipe(Effect.withSpan("hedgerow.migrate"))
)
