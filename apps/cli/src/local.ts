import { HedgerowServices } from "@hedgerow/store"
import { Config, Effect } from "effect"
import { Flag } from "effect/cli"

/**
 * Admin commands run core in this process on the server's data directory rather than over HTTP:
 * users, organizations, keys and roles have no endpoints (only the operator may create them), and this
 * is how the operator makes the very first key.
 */

export const DEFAULT_DATA_DIR = ".hedgerow"

export const dataDirFlag = Flag.String("data-dir").pipe(
  Flag.withDescription(`Embedded store directory (env HEDGEROW_DATA_DIR, default ${DEFAULT_DATA_DIR})`),
  Flag.withFallbackConfig(Config.String("HEDGEROW_DATA_DIR")),
  Flag.withDefault(DEFAULT_DATA_DIR)
)

/** Spread into an admin command's flags. */
export const localFlags = { dataDir: dataDirFlag }

/**
 * Runs `effect` against core services on `dataDir`. The store is opened for this one effect and closed
 * after it, releasing the directory's lock; a running server holds that lock, so this fails with the
 * store's DataDirInUse rather than corrupting its database.
 */
export const inProcess = (dataDir: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, HedgerowServices({ dataDir }))
