import { CoreServices } from "@hedgerow/core"
import { Layer } from "effect"
import { BatchExportRepositoryLive } from "./repositories/batch-exports.ts"
import { MembershipRepositoryLive } from "./repositories/memberships.ts"
import { OrganizationRepositoryLive } from "./repositories/organizations.ts"
import { PersonalApiKeyRepositoryLive } from "./repositories/personal-api-keys.ts"
import { ProjectRepositoryLive } from "./repositories/projects.ts"
import { RoleRepositoryLive } from "./repositories/roles.ts"
import { TransactionsLive } from "./repositories/transactions.ts"
import { UserRepositoryLive } from "./repositories/users.ts"
import { MigrationsLive } from "./migrations/index.ts"
import { layerPgliteDataDir } from "./sql/data-dir-lock.ts"
import { layerPglite } from "./sql/pglite-client.ts"

/** Every repository core declares, over whichever SqlClient is provided. */
export const Repositories = Layer.mergeAll(
  OrganizationRepositoryLive,
  UserRepositoryLive,
  MembershipRepositoryLive,
  PersonalApiKeyRepositoryLive,
  ProjectRepositoryLive,
  RoleRepositoryLive,
  BatchExportRepositoryLive,
  TransactionsLive
)

export interface StoreOptions {
  /** A PGlite data directory; in memory when absent. */
  readonly dataDir?: string | undefined
}

/** The SQL client alone: PGlite in memory, or on a locked data directory. */
export const sqlLayer = (options: StoreOptions) =>
  options.dataDir === undefined ? layerPglite() : layerPgliteDataDir(options.dataDir)

/** Repositories on a migrated database; the SqlClient stays visible for health checks. */
export const StoreLive = (options: StoreOptions = {}) =>
  Repositories.pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(sqlLayer(options)))

/** Core's services over this store: the whole of Hedgerow without a transport, for servers, CLIs and embedding apps. */
export const HedgerowServices = (options: StoreOptions = {}) => CoreServices.pipe(Layer.provideMerge(StoreLive(options)))
