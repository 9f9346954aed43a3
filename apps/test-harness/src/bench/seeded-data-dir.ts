import { analyzeChangedTables, Hedgerow } from "@hedgerow/store"
import { Effect, Layer } from "effect"
import { bootstrapTenant } from "./hedgerow-target.ts"
import { seedFlags } from "./seed-flags.ts"

/**
 * A new data dir bootstrapped and seeded with `flags` flags from this process through the store's own
 * layer, which is closed again (and its lock released) before a server starts on it. Gives the tenant.
 */
export const seededDataDir = (dataDir: string, flags: number) =>
  Effect.scoped(Effect.gen(function*() {
    const services = yield* Layer.build(Hedgerow.layer({ dataDir }))
    return yield* Effect.gen(function*() {
      const tenant = yield* bootstrapTenant
      yield* seedFlags(tenant, 0, flags)
      // As a server would after an import, once its analyzer came round to it.
      yield* analyzeChangedTables
      return tenant
    }).pipe(Effect.provideContext(services))
  }))
