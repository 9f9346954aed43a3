/** Hedgerow's store: core's repositories in SQL on embedded PGlite (or, later, a PostgreSQL server). */
export * from "./store.ts"
export { MigrationsLive, migrations } from "./migrations/index.ts"
export { DataDirInUse, DataDirLockError } from "./sql/data-dir-lock.ts"
export { layerPglite } from "./sql/pglite-client.ts"
