import { afterAll, beforeAll, describe, it } from "vitest"
import { primaryOf } from "../src/runner.ts"
import { applicable, scenarios } from "../src/scenarios/index.ts"
import { type Prepared, prepareCore, prepareServer } from "../src/targets/in-process.ts"
import { prepareProcess } from "../src/targets/process.ts"

/**
 * The conformance set on its three targets: core in-process (no HTTP), the server in this process on a
 * random port, and a separate server process reached only through its URL.
 */
const targets = { core: prepareCore, server: prepareServer, process: prepareProcess }

for (const [name, prepare] of Object.entries(targets)) {
  describe(`conformance on ${name}`, () => {
    let prepared: Prepared
    beforeAll(async () => {
      prepared = await prepare()
    })
    afterAll(async () => {
      await prepared?.close()
    })
    // Every target here has operator fixtures and its own DNS and mail servers; only the in-process core lacks raw HTTP.
    for (const scenario of scenarios) {
      if (!applicable(scenario, { world: true, transport: name !== "core", network: true })) continue
      it(scenario.name, async () => {
        await scenario.run({ target: prepared.target, primary: primaryOf(prepared.world), world: prepared.world, network: prepared.network })
      })
    }
  })
}
