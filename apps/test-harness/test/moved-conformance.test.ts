import { forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { afterAll, beforeAll, describe, it } from "vitest"
import { primaryOf } from "../src/runner.ts"
import { applicable, scenarios } from "../src/scenarios/index.ts"
import { prepareMovedProcess } from "../src/targets/moved.ts"
import { onFreshDatabase, type Prepared } from "../src/targets/prepared.ts"

/**
 * The conformance set on a store moved from the embedded store to PostgreSQL: the fixtures are written
 * to a data dir, `hedgerow admin migrate-to-postgres` moves them to a fresh database, and a server
 * process serves it. Its keys, tokens and ids are the ones made on the embedded store.
 */
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("conformance on a store moved to PostgreSQL", () => {
    let prepared: Prepared | undefined
    beforeAll(async () => {
      prepared = await onFreshDatabase(testDatabaseUrl()!, prepareMovedProcess)
    }, 120_000)
    afterAll(async () => {
      await prepared?.close()
    })
    for (const scenario of scenarios) {
      if (!applicable(scenario, { world: true, transport: true, network: true })) continue
      it(scenario.name, async () => {
        const { target, world, network } = prepared!
        await scenario.run({ target, primary: primaryOf(world), world, network })
      })
    }
  })
})
