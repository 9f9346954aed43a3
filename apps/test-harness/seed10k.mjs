// Seeds a data dir with 10,000 flags as the memory bench does; prints the key and the project id.
import { Effect, Layer } from "effect"
import { analyzeChangedTables, Hedgerow } from "@hedgerow/store"
import { seedFlags } from "./dist/bench/flag-scenarios.js"
import { bootstrapTenant } from "./dist/bench/hedgerow-target.js"
const dataDir = process.argv[2]
const tenant = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  const services = yield* Layer.build(Hedgerow.layer({ dataDir }))
  return yield* Effect.gen(function*() {
    const tenant = yield* bootstrapTenant
    yield* seedFlags(tenant, 0, 10000)
    yield* analyzeChangedTables
    return tenant
  }).pipe(Effect.provideContext(services))
})))
console.log(tenant.authorization.authorization.slice(7), tenant.projectId)
