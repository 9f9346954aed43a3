/** Hedgerow's store: core's repositories in SQL, on embedded PGlite or on a PostgreSQL server. */
export * from "./store.ts"
export { MigrationFailed, MigrationsLive, migrations } from "./migrations/index.ts"
export { DataDirInUse, DataDirLockError } from "./sql/data-dir-lock.ts"
export { layerPglite } from "./sql/pglite-client.ts"
export { DatabaseUnavailable, DEFAULT_POOL_SIZE, displayUrl, layerPostgres } from "./sql/postgres-client.ts"
export { analyzeChangedTables } from "./sql/statistics.ts"
export { DEFAULT_DNS_TIMEOUT_MS, dnsChallengeLookup, DnsConfigError, type DnsOptions } from "./network/dns.ts"
export { DEFAULT_MAIL_FROM, SmtpConfigError, smtpTransport, smtpUrlOf } from "./network/smtp.ts"
