import { forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { afterAll, beforeAll, describe, it } from "vitest"
import { primaryOf } from "../src/runner.ts"
import { applicable, scenarios } from "../src/scenarios/index.ts"
import { preparers } from "../src/targets/index.ts"
import { onFreshDatabase, type Prepared } from "../src/targets/prepared.ts"

/**
 * The conformance set on the harness's three targets (core in-process, the server in this process, a
 * separate server process), each on PGlite and on a fresh PostgreSQL database of its own.
 */
forEachBackend((backend) => {
  for (const [name, prepare] of Object.entries(preparers)) {
    describe(`conformance on ${name} (${backend.name})`, () => {
      let prepared: Prepared | undefined
      beforeAll(async () => {
        // forEachBackend registers the PostgreSQL half only when there is a server to run on.
        prepared = backend.name === "postgres" ? await onFreshDatabase(testDatabaseUrl()!, prepare) : await prepare()
      })
      afterAll(async () => {
        await prepared?.close()
      })
      // Every target here has operator fixtures and its own DNS and mail servers; only the in-process core lacks raw HTTP.
      for (const scenario of scenarios) {
        if (!applicable(scenario, { world: true, transport: name !== "core", network: true })) continue
        it(scenario.name, async () => {
          const { target, world, network } = prepared!
          await scenario.run({ target, primary: primaryOf(world), world, network })
        })
      }
    })
  }
})
