import { CoreServices } from "@hedgerow/core"
import { Layer } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import * as path from "node:path"
import { ActivityRepositoryLive } from "./repositories/activity.ts"
import { BatchExportRepositoryLive } from "./repositories/batch-exports.ts"
import { CohortRepositoryLive } from "./repositories/cohorts.ts"
import { DashboardRepositoryLive } from "./repositories/dashboards.ts"
import { DomainRepositoryLive } from "./repositories/domains.ts"
import { FeatureFlagRepositoryLive } from "./repositories/feature-flags.ts"
import { FlagRoleAccessRepositoryLive } from "./repositories/flag-role-access.ts"
import { InviteRepositoryLive } from "./repositories/invites.ts"
import { MembershipRepositoryLive } from "./repositories/memberships.ts"
import { OutboxRepositoryLive } from "./repositories/outbox.ts"
import { OrganizationRepositoryLive } from "./repositories/organizations.ts"
import { PersonalApiKeyRepositoryLive } from "./repositories/personal-api-keys.ts"
import { ProjectRepositoryLive } from "./repositories/projects.ts"
import { RoleRepositoryLive } from "./repositories/roles.ts"
import { TransactionsLive } from "./repositories/transactions.ts"
import { UserRepositoryLive } from "./repositories/users.ts"
import { MigrationsLive } from "./migrations/index.ts"
import { DnsLive } from "./network/dns.ts"
import { SmtpMailerLive } from "./network/smtp.ts"
import { type DataDirInUse, type DataDirLockError, layerPgliteDataDir } from "./sql/data-dir-lock.ts"
import { layerPglite } from "./sql/pglite-client.ts"
import { type DatabaseUnavailable, displayUrl, layerPostgres } from "./sql/postgres-client.ts"
import { EmbeddedAnalyzerLive } from "./sql/statistics.ts"

/** Every repository core declares, over whichever SqlClient is provided. */
export const Repositories = Layer.mergeAll(
  OrganizationRepositoryLive,
  UserRepositoryLive,
  MembershipRepositoryLive,
  InviteRepositoryLive,
  OutboxRepositoryLive,
  PersonalApiKeyRepositoryLive,
  ProjectRepositoryLive,
  RoleRepositoryLive,
  BatchExportRepositoryLive,
  DomainRepositoryLive,
  FeatureFlagRepositoryLive,
  FlagRoleAccessRepositoryLive,
  ActivityRepositoryLive,
  DashboardRepositoryLive,
  CohortRepositoryLive,
  TransactionsLive
)

/** Adapters to the world beyond SQL (DNS, SMTP), configured from the environment once, when the layer is built. */
export const NetworkLive = Layer.mergeAll(DnsLive, SmtpMailerLive)

export interface StoreOptions {
  /** A PostgreSQL server's URL; when given, the store lives there and `dataDir` is ignored. */
  readonly databaseUrl?: string | undefined
  /** Connections to that server per process (default 10). */
  readonly poolSize?: number | undefined
  /** A PGlite data directory; in memory when absent (and no `databaseUrl`). */
  readonly dataDir?: string | undefined
}

/** Which store the options select, for messages: the URL without its password, a directory, or memory. */
export const storeDescription = (options: StoreOptions): string =>
  options.databaseUrl !== undefined
    ? `PostgreSQL at ${displayUrl(options.databaseUrl)}`
    : options.dataDir === undefined
    ? "embedded store in memory"
    : `embedded store in ${path.resolve(options.dataDir)}`

/** The SQL client alone: a PostgreSQL pool, or PGlite in memory or on a locked data directory. */
export const sqlLayer = (
  options: StoreOptions
): Layer.Layer<SqlClient.SqlClient, DatabaseUnavailable | DataDirInUse | DataDirLockError | SqlError.SqlError> =>
  options.databaseUrl !== undefined
    ? layerPostgres({ url: options.databaseUrl, poolSize: options.poolSize })
    : options.dataDir === undefined
    ? layerPglite()
    : layerPgliteDataDir(options.dataDir)

/**
 * Repositories on a migrated database and the network adapters; the SqlClient stays visible for health
 * checks. PGlite has no autovacuum, so the embedded store also runs the in-process analyzer; a
 * PostgreSQL server keeps its own statistics.
 */
export const StoreLive = (options: StoreOptions = {}) =>
  Layer.mergeAll(Repositories, NetworkLive, options.databaseUrl === undefined ? EmbeddedAnalyzerLive : Layer.empty).pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(sqlLayer(options))
  )

/** Core's services over this store: the whole of Hedgerow without a transport, for servers, CLIs and embedding apps. */
export const HedgerowServices = (options: StoreOptions = {}) => CoreServices.pipe(Layer.provideMerge(StoreLive(options)))
