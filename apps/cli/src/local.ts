import type { StoreOptions } from "@hedgerow/store"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Flag } from "effect/cli"
import { DEFAULT_POOL_SIZE, MIN_POOL_SIZE } from "./defaults.ts"
import { type Core, loadCore, loadStore } from "./packages.ts"

/**
 * Admin commands run core in this process on the server's store rather than over HTTP: users,
 * organizations and roles have no endpoints (only the operator may create them), and this is how the
 * operator makes the very first key, or a key for another user. On a PostgreSQL database they run
 * beside running servers; an embedded data directory admits one process at a time.
 */

export const DEFAULT_DATA_DIR = ".hedgerow"

export const dataDirFlag = Flag.String("data-dir").pipe(
  Flag.withDescription(`Embedded store directory, when no database URL is given (env HEDGEROW_DATA_DIR, default ${DEFAULT_DATA_DIR})`),
  Flag.withFallbackConfig(Config.String("HEDGEROW_DATA_DIR")),
  Flag.withDefault(DEFAULT_DATA_DIR)
)

export const databaseUrlFlag = Flag.String("database-url").pipe(
  Flag.withDescription("PostgreSQL server to keep the store on, postgres://user:password@host:port/database (env DATABASE_URL)"),
  Flag.withFallbackConfig(Config.String("DATABASE_URL")),
  Flag.optional
)

export const poolSizeFlag = Flag.Int("pool-size").pipe(
  Flag.withDescription(`Connections to PostgreSQL per process (env HEDGEROW_DB_POOL_SIZE, default ${DEFAULT_POOL_SIZE})`),
  Flag.withFallbackConfig(Config.Int("HEDGEROW_DB_POOL_SIZE")),
  Flag.withDefault(DEFAULT_POOL_SIZE),
  // Refused before any connection is opened, in the flag's own words.
  Flag.filter((size) => size >= MIN_POOL_SIZE, (size) => `--pool-size must be at least ${MIN_POOL_SIZE} (one listens for changes), got ${size}`)
)

/** Spread into a command's flags; the handler passes them on to `storeOf` or `inProcess`. */
export const localFlags = { dataDir: dataDirFlag, databaseUrl: databaseUrlFlag, poolSize: poolSizeFlag }

export interface LocalFlags {
  readonly dataDir: string
  readonly databaseUrl: Option.Option<string>
  readonly poolSize: number
}

/** The store the flags select: the PostgreSQL URL when one is given (an empty one counts as none), else the data dir. */
export const storeOf = (flags: LocalFlags): StoreOptions => {
  const url = Option.filter(flags.databaseUrl, (value) => value.trim() !== "")
  return Option.isSome(url) ? { databaseUrl: url.value.trim(), poolSize: flags.poolSize } : { dataDir: flags.dataDir }
}

/**
 * Runs what `run` makes of core against core services on the selected store, opened for this one effect
 * and closed after it. A running server holds an embedded data directory's lock, so there this fails
 * with the store's DataDirInUse rather than corrupting its database.
 */
export const inProcess = <A, E, R>(flags: LocalFlags, run: (core: Core) => Effect.Effect<A, E, R>) =>
  Effect.all([loadCore, loadStore]).pipe(
    Effect.flatMap(([core, { Hedgerow }]) => Effect.provide(run(core), Hedgerow.layer(storeOf(flags))))
  )
