import { Layer } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import * as path from "node:path"
import * as ActivityRepositorySql from "./repositories/activity.ts"
import * as BatchExportRepositorySql from "./repositories/batch-exports.ts"
import * as CliAuthRepositorySql from "./repositories/cli-auth.ts"
import * as CohortRepositorySql from "./repositories/cohorts.ts"
import * as DashboardRepositorySql from "./repositories/dashboards.ts"
import * as DomainRepositorySql from "./repositories/domains.ts"
import * as FeatureFlagRepositorySql from "./repositories/feature-flags.ts"
import * as FlagRoleAccessRepositorySql from "./repositories/flag-role-access.ts"
import * as FlagUsageRepositorySql from "./repositories/flag-usage.ts"
import * as GroupTypeRepositorySql from "./repositories/group-types.ts"
import * as FlagCallRepositorySql from "./repositories/flag-calls.ts"
import * as InviteRepositorySql from "./repositories/invites.ts"
import * as MembershipRepositorySql from "./repositories/memberships.ts"
import * as OAuthLoginRepositorySql from "./repositories/oauth-logins.ts"
import * as OutboxRepositorySql from "./repositories/outbox.ts"
import * as OrganizationRepositorySql from "./repositories/organizations.ts"
import * as OrganizationRemovalRepositorySql from "./repositories/organization-removal.ts"
import * as PersonalApiKeyRepositorySql from "./repositories/personal-api-keys.ts"
import * as ProjectRepositorySql from "./repositories/projects.ts"
import * as RoleRepositorySql from "./repositories/roles.ts"
import * as SamlRepositorySql from "./repositories/saml.ts"
import * as SessionRepositorySql from "./repositories/sessions.ts"
import * as SignInLinkRepositorySql from "./repositories/sign-in-links.ts"
import * as TransactionsSql from "./repositories/transactions.ts"
import * as TwoFactorRepositorySql from "./repositories/two-factor.ts"
import * as UserRepositorySql from "./repositories/users.ts"
import * as WebhookQueueSql from "./repositories/webhook-queue.ts"
import * as WebhookRepositorySql from "./repositories/webhooks.ts"
import * as Migrations from "./migrations/index.ts"
import * as Dns from "./network/dns.ts"
import * as Smtp from "./network/smtp.ts"
import * as WebhookHttp from "./network/webhook-transport.ts"
import { type DataDirInUse, type DataDirLockError, layerPgliteDataDir } from "./sql/data-dir-lock.ts"
import { layerPglite } from "./sql/pglite-client.ts"
import { type DatabaseUnavailable, displayUrl, layerPostgres } from "./sql/postgres-client.ts"
import * as EmbeddedAnalyzer from "./sql/statistics.ts"
import * as ChangeFeed from "./sql/change-feed.ts"
import type { Listener } from "./sql/listener.ts"
import { freshnessLayer } from "@hedgerow/core/ports"

/**
 * Hedgerow's store. Layers follow one convention: `layer` needs nothing more, `layerNoDeps` needs what
 * its name's module says (here: a SqlClient).
 */

/** Every repository core declares, over whichever SqlClient is provided. */
export const repositoriesNoDeps = Layer.mergeAll(
  OrganizationRepositorySql.layerNoDeps,
  OrganizationRemovalRepositorySql.layerNoDeps,
  UserRepositorySql.layerNoDeps,
  SessionRepositorySql.layerNoDeps,
  TwoFactorRepositorySql.layerNoDeps,
  SamlRepositorySql.layerNoDeps,
  OAuthLoginRepositorySql.layerNoDeps,
  CliAuthRepositorySql.layerNoDeps,
  SignInLinkRepositorySql.layerNoDeps,
  MembershipRepositorySql.layerNoDeps,
  InviteRepositorySql.layerNoDeps,
  OutboxRepositorySql.layerNoDeps,
  PersonalApiKeyRepositorySql.layerNoDeps,
  ProjectRepositorySql.layerNoDeps,
  RoleRepositorySql.layerNoDeps,
  BatchExportRepositorySql.layerNoDeps,
  DomainRepositorySql.layerNoDeps,
  FeatureFlagRepositorySql.layerNoDeps,
  FlagRoleAccessRepositorySql.layerNoDeps,
  FlagUsageRepositorySql.layerNoDeps,
  FlagCallRepositorySql.layerNoDeps,
  ActivityRepositorySql.layerNoDeps,
  DashboardRepositorySql.layerNoDeps,
  CohortRepositorySql.layerNoDeps,
  GroupTypeRepositorySql.layerNoDeps,
  WebhookRepositorySql.layerNoDeps,
  // Hears of new work through the change feed's Freshness, when one is live; else its worker polls.
  WebhookQueueSql.layerNoDeps,
  TransactionsSql.layerNoDeps
)

/** Adapters to the world beyond SQL (DNS, SMTP, webhooks' HTTP), configured from the environment once, when the layer is built. */
export const networkLayer = Layer.mergeAll(Dns.layer, Smtp.layer, WebhookHttp.layer)

export interface StoreOptions {
  /** A PostgreSQL server's URL; when given, the store lives there and `dataDir` is ignored. */
  readonly databaseUrl?: string | undefined
  /** Connections to that server per process (default 10). */
  readonly poolSize?: number | undefined
  /** A PGlite data directory; in memory when absent (and no `databaseUrl`). */
  readonly dataDir?: string | undefined
}

/** Which store the options select, for messages: the URL without its password, a directory, or memory. */
export const description = (options: StoreOptions): string =>
  options.databaseUrl !== undefined
    ? `PostgreSQL at ${displayUrl(options.databaseUrl)}`
    : options.dataDir === undefined
    ? "embedded store in memory"
    : `embedded store in ${path.resolve(options.dataDir)}`

/** The SQL client alone: a PostgreSQL pool, or PGlite in memory or on a locked data directory. */
export const layerSql = (
  options: StoreOptions
): Layer.Layer<SqlClient.SqlClient | Listener, DatabaseUnavailable | DataDirInUse | DataDirLockError | SqlError.SqlError> =>
  options.databaseUrl !== undefined
    ? layerPostgres({ url: options.databaseUrl, poolSize: options.poolSize })
    : options.dataDir === undefined
    ? layerPglite({ fromEmptyStore: true })
    : layerPgliteDataDir(options.dataDir)

/**
 * Repositories on a migrated database and the network adapters; the SqlClient stays visible for health
 * checks. PGlite has no autovacuum, so the embedded store also runs the in-process analyzer; a
 * PostgreSQL server keeps its own statistics.
 */
export const layer = (options: StoreOptions = {}) =>
  Layer.mergeAll(
    repositoriesNoDeps,
    networkLayer,
    options.databaseUrl === undefined ? EmbeddedAnalyzer.layerNoDeps : Layer.empty
  ).pipe(
    Layer.provideMerge(ChangeFeed.layerNoDeps),
    Layer.provideMerge(freshnessLayer),
    Layer.provideMerge(Migrations.layerNoDeps),
    Layer.provideMerge(layerSql(options))
  )
