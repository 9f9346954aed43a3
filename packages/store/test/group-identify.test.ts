import { assert, layer } from "@effect/vitest"
import { Bootstrap, CoreServices, EventCaptureService, GroupTypeRegistry, type ProjectId } from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Store } from "../src/index.ts"

/** What the registry was handed, in order. */
const registered: Array<readonly [ProjectId, string]> = []
const recording = Layer.succeed(GroupTypeRegistry, GroupTypeRegistry.of({
  register: (project, name) => Effect.sync(() => void registered.push([project, name]))
}))

const hedgerow = CoreServices.layerNoDeps.pipe(Layer.provide(recording), Layer.provideMerge(Store.layer({})))

layer(hedgerow, { timeout: 60_000, excludeTestServices: true })("$groupidentify events", (it) => {
  it.effect("hand each group type they name to the GroupTypeRegistry, once a batch, and nothing for incomplete ones", () =>
    Effect.gen(function*() {
      const boot = yield* Bootstrap.use((b) => b.run({}))
      const sql = yield* SqlClient.SqlClient
      const token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${boot.project_id}`)[0]!.token
      const identify = (properties: object) => ({ event: "$groupidentify", distinct_id: "d", properties })
      yield* EventCaptureService.use((s) =>
        s.capture({
          api_key: token,
          batch: [
            identify({ $group_type: "company", $group_key: "acme", $group_set: { name: "Acme" } }),
            identify({ $group_type: "company", $group_key: "globex" }),
            identify({ $group_type: "project", $group_key: 42 }),
            identify({ $group_type: "team" }),
            identify({ $group_key: "x" }),
            identify({ $group_type: "  ", $group_key: "x" })
          ]
        }, { engage: false })
      )
      assert.deepStrictEqual(registered, [[boot.project_id, "company"], [boot.project_id, "project"]])
    }))
})
