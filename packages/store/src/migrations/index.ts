import { Effect, Layer } from "effect"
import { Migrator } from "effect/sql"
import initial from "./0001_initial.ts"
import featureFlags from "./0002_feature_flags.ts"

/** Forward-only, versioned migrations, recorded in `hedgerow_migrations` and applied at start. */
export const migrations = { "0001_initial": initial, "0002_feature_flags": featureFlags }

export const MigrationsLive = Layer.effectDiscard(
  Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "hedgerow_migrations" }).pipe(
    Effect.withSpan("hedgerow.migrate")
  )
)
