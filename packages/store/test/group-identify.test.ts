import { assert, layer } from "@effect/vitest"
import { Bootstrap, CoreServices, EventCaptureService, FlagEvaluationService } from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Store } from "../src/index.ts"

const hedgerow = CoreServices.layerNoDeps.pipe(Layer.provideMerge(Store.layer({})))

layer(hedgerow, { timeout: 60_000, excludeTestServices: true })("$groupidentify events", (it) => {
  it.effect("register each group type they name, at the lowest free index, once, and nothing for incomplete ones", () =>
    Effect.gen(function*() {
      const boot = yield* Bootstrap.use((b) => b.run({}))
      const sql = yield* SqlClient.SqlClient
      const token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${boot.project_id}`)[0]!.token
      const identify = (properties: object) => ({ event: "$groupidentify", distinct_id: "d", properties })
      const capture = (batch: ReadonlyArray<object>) =>
        EventCaptureService.use((s) => s.capture({ api_key: token, batch }, { engage: false }))
      yield* capture([
        identify({ $group_type: "company", $group_key: "acme", $group_set: { name: "Acme" } }),
        identify({ $group_type: "company", $group_key: "globex" }),
        identify({ $group_type: "project", $group_key: 42 }),
        identify({ $group_type: "team" }),
        identify({ $group_key: "x" }),
        identify({ $group_type: "  ", $group_key: "x" })
      ])
      yield* capture([identify({ $group_type: "project", $group_key: 7 })])
      const stored = yield* sql<{ group_type: string; group_type_index: number }>`
        SELECT group_type, group_type_index FROM group_types WHERE project_id = ${boot.project_id} ORDER BY group_type_index`
      assert.deepStrictEqual(stored, [{ group_type: "company", group_type_index: 0 }, { group_type: "project", group_type_index: 1 }])
      // Evaluation reads the names at once: the definitions' mapping carries them.
      const snapshot = yield* FlagEvaluationService.use((s) => s.snapshot(boot.project_id))
      assert.deepStrictEqual(snapshot.prepared.groupTypes, { "0": "company", "1": "project" })
    }))
})
