import { CoreServices } from "@hedgerow/core"
import { Layer } from "effect"
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
import { layerPgliteDataDir } from "./sql/data-dir-lock.ts"
import { layerPglite } from "./sql/pglite-client.ts"
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
  /** A PGlite data directory; in memory when absent. */
  readonly dataDir?: string | undefined
}

/** The SQL client alone: PGlite in memory, or on a locked data directory. */
export const sqlLayer = (options: StoreOptions) =>
  options.dataDir === undefined ? layerPglite() : layerPgliteDataDir(options.dataDir)

/**
 * Repositories on a migrated database, the network adapters, and (PGlite having no autovacuum) the
 * in-process analyzer; the SqlClient stays visible for health checks.
 */
export const StoreLive = (options: StoreOptions = {}) =>
  Layer.mergeAll(Repositories, NetworkLive, EmbeddedAnalyzerLive).pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(sqlLayer(options)))

/** Core's services over this store: the whole of Hedgerow without a transport, for servers, CLIs and embedding apps. */
export const HedgerowServices = (options: StoreOptions = {}) => CoreServices.pipe(Layer.provideMerge(StoreLive(options)))
