import { Bootstrap, type Bootstrapped, type OrganizationId, type ProjectId, type UserId } from "@hedgerow/core"
import { HedgerowServer, logSettingsFromConfig } from "@hedgerow/http-server"
import { analyzeChangedTables } from "@hedgerow/store"
import { Context, Effect, Layer, type Scope } from "effect"
import { type ProcessMemory, thisProcessMemory } from "./memory.ts"
import { seedFlags, type SeedTenant } from "./seed-flags.ts"

/** The bootstrapped tenant every scenario works in, and how to reach and authenticate to it. */
export class HedgerowFixture extends Context.Service<HedgerowFixture, {
  /** Where a scenario's setup sends its own API requests (the first server when there are several). */
  readonly baseUrl: string
  readonly organizationId: OrganizationId
  readonly projectId: ProjectId
  /** The bootstrapped owner, whose key the requests carry. */
  readonly userId: UserId
  /** `Authorization: Bearer <personal API key with scope *>`. */
  readonly authorization: Readonly<Record<string, string>>
}>()("hedgerow/bench/HedgerowFixture") {}

/**
 * Writes flags of the plausible product (seed-flags.ts) straight into the target's store, then brings the
 * planner's statistics up to date the way that store gets them. The embedded store's background analyzer
 * (or autovacuum on a server) would get there in time; not waiting for it keeps the run short, and
 * measures the steady state a user sees shortly after an import.
 */
export class FlagSeeder extends Context.Service<FlagSeeder, {
  /** Flags `from` to `to - 1` in the tenant's project; nothing when the range is empty. */
  readonly seed: (tenant: SeedTenant, from: number, to: number) => Effect.Effect<void, unknown>
}>()("hedgerow/bench/FlagSeeder") {}

/** Everything a scenario's setup may use: the fixture and the seeder. */
export type ScenarioServices = HedgerowFixture | FlagSeeder

/** A Hedgerow deployment under test, for as long as the scope that started it. */
export interface HedgerowTarget {
  readonly context: Context.Context<ScenarioServices>
  /** One base URL per server; the load is spread over all of them. */
  readonly urls: ReadonlyArray<string>
  /** Memory of the processes serving those URLs, read right after a measured run. */
  readonly memory: Effect.Effect<ReadonlyArray<ProcessMemory>>
}

/** How a benchmark run names and starts its target. */
export interface TargetPlan {
  /** Heads the run's table, e.g. "PostgreSQL, 2 server processes". */
  readonly label: string
  /** `hedgerow serve` processes it starts; 0 when Hedgerow runs in this process. */
  readonly serverProcesses: number
  /** Reports each step through `progress`. */
  readonly start: (progress: (line: string) => void) => Effect.Effect<HedgerowTarget, unknown, Scope.Scope>
}

/** The fixture but for its URL, known before any server serves the store. */
export type Tenant = Omit<HedgerowFixture["Service"], "baseUrl">

/** The tenant a bootstrap made, and its key as the fixture's requests carry it. */
export const tenantOf = (bootstrapped: Bootstrapped): Tenant => ({
  organizationId: bootstrapped.organization_id,
  projectId: bootstrapped.project_id,
  userId: bootstrapped.user.id,
  authorization: { authorization: `Bearer ${bootstrapped.personal_api_key}` }
})

/**
 * Bootstraps an empty store through core: the tenant of the fixture, for whichever URL serves it. Run
 * before any server process starts on that store, so that none bootstraps it first.
 */
export const bootstrapTenant = Effect.map(Bootstrap.use((bootstrap) => bootstrap.run({})), tenantOf)

export const fixtureAt = (tenant: Tenant, baseUrl: string) => HedgerowFixture.of({ ...tenant, baseUrl })

/**
 * The request log of every server but those of the shipped and postgres sections (which write it to a
 * file): off unless HEDGEROW_LOG_LEVEL asks for it, since the report goes to stdout too. On, the lines
 * come first and the report after them, at the end of stdout.
 */
export const benchLogSettings = logSettingsFromConfig({ level: "none", format: "text" })

/**
 * Hedgerow in this process on an in-memory store, bootstrapped: not as it ships, kept for its extra rows
 * (Effect's HttpApi alone, the search over 10,000 flags, cohort targeting). Flags are seeded through core
 * over the server's own store, and the embedded store's own analyzer rule refreshes statistics.
 */
export const inProcess: TargetPlan = {
  label: "Hedgerow in process, in-memory store",
  serverProcesses: 0,
  start: () => Effect.gen(function*() {
    const log = yield* benchLogSettings
    const context = yield* Layer.build(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, log }))
    const fixture = yield* Effect.all([bootstrapTenant, HedgerowServer.baseUrl]).pipe(
      Effect.map(([tenant, url]) => fixtureAt(tenant, url)),
      Effect.provideContext(context)
    )
    const seeder = FlagSeeder.of({
      seed: (tenant, from, to) => seedFlags(tenant, from, to).pipe(Effect.andThen(analyzeChangedTables), Effect.provideContext(context))
    })
    return {
      context: Context.make(HedgerowFixture, fixture).pipe(Context.add(FlagSeeder, seeder)),
      urls: [fixture.baseUrl],
      memory: Effect.sync(() => [thisProcessMemory()])
    } satisfies HedgerowTarget
  })
}
