import { assert, layer } from "@effect/vitest"
import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import { lines, runInProcess } from "./cli-runner.ts"

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow flags usage", (it) => {
  it.effect("shows the calls the SDKs reported, per day and value, as a table or the report with --json", () =>
    Effect.gen(function*() {
      const url = yield* HedgerowServer.baseUrl
      const boot = yield* Effect.flatMap(Effect.service(Bootstrap), (b) => b.run({ email: "owner@example.com" }))
      const run = (...args: ReadonlyArray<string>) => runInProcess(["flags", ...args, "--url", url, "--key", boot.personal_api_key])
      const created = yield* run("create", "checkout", "--no-usage-dashboard", "--json")
      const id = String(JSON.parse(created.stdout).id)
      const quiet = yield* run("usage", id)
      assert.strictEqual(quiet.code, 0)
      const today = new Date().toISOString().slice(0, 10)
      const monthAgo = new Date(Date.parse(today) - 30 * 86_400_000).toISOString().slice(0, 10)
      assert.deepStrictEqual(lines(quiet.stdout), [`No calls of checkout from ${monthAgo} to ${today}`])

      const token = yield* Effect.promise(async () =>
        (await (await fetch(`${url}/api/projects/${boot.project_id}/`, { headers: { authorization: `Bearer ${boot.personal_api_key}` } })).json()).api_token
      )
      const call = (response: boolean) => ({ event: "$feature_flag_called", distinct_id: "d", properties: { $feature_flag: "checkout", $feature_flag_response: response } })
      const sent = yield* Effect.promise(() =>
        fetch(`${url}/batch/`, { method: "POST", body: JSON.stringify({ api_key: token, batch: [call(true), call(true), call(false)] }) })
      )
      assert.strictEqual(sent.status, 200)

      const table = yield* run("usage", id, "--date-from=-6d")
      assert.strictEqual(table.stderr, "")
      const weekAgo = new Date(Date.parse(today) - 6 * 86_400_000).toISOString().slice(0, 10)
      assert.deepStrictEqual(lines(table.stdout), [
        "DAY         TRUE  FALSE  TOTAL",
        `${today}  2     1      3`,
        `3 calls of checkout from ${weekAgo} to ${today}`
      ])
      const report = JSON.parse((yield* run("usage", id, "--date-from", today, "--date-to", today, "--json")).stdout)
      assert.deepStrictEqual(report, {
        flag_id: Number(id),
        flag_key: "checkout",
        date_from: today,
        date_to: today,
        days: [today],
        total: 3,
        results: [
          { breakdown_value: "true", label: "true", count: 2, data: [2] },
          { breakdown_value: "false", label: "false", count: 1, data: [1] }
        ]
      })

      const unknown = yield* run("usage", "987654")
      assert.strictEqual(unknown.code, 1)
      assert.deepStrictEqual(lines(unknown.stderr), ["error: Not found."])
      const badDate = yield* run("usage", id, "--date-from", "last week")
      assert.strictEqual(badDate.code, 1)
      assert.deepStrictEqual(lines(badDate.stderr), ["error: Enter a date as YYYY-MM-DD or a relative one such as -30d, -4w or -1m. (field date_from)"])
    }))
})
