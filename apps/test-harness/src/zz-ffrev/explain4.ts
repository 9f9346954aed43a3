import { HedgerowServices } from "@hedgerow/store"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { createWorld } from "../world.ts"
const runtime = ManagedRuntime.make(HedgerowServices({}))
const world = await runtime.runPromise(createWorld)
const P = world.projectA
const words = "alpha beta gamma delta checkout signup billing search onboarding pricing banner modal cart invoice export import sidebar header footer theme dark light mobile desktop beta2 trial upgrade referral survey feedback rollout canary experiment holdout dashboard insights funnels cohorts persons events replay heatmap toolbar notebook pipeline warehouse webhook zapier slack email sms push".split(" ")
await runtime.runPromise(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`INSERT INTO feature_flags (project_id, key, name, filters, created_by_id, created_at, updated_at)
    SELECT ${P}, w1 || '-' || w2 || '-' || g, 'Enables the ' || w2 || ' ' || w1 || ' for team ' || (g % 97), '{"groups":[]}'::jsonb, 1, now() - (g || ' minutes')::interval, now()
    FROM (SELECT g, (ARRAY[${words.map((w) => `'${w}'`).join(",")}])[1 + (g * 7919) % ${words.length}] AS w1,
                    (ARRAY[${words.map((w) => `'${w}'`).join(",")}])[1 + (g * 104729) % ${words.length}] AS w2
          FROM generate_series(1, 100000) g) s`)
  yield* sql.unsafe(`ANALYZE`)
  const where = (p: string) => `f.project_id = ${P} AND NOT f.deleted AND (f.key ILIKE '${p}' OR f.name ILIKE '${p}')`
  for (const p of ["%checkout-sign%", "%zapier%", "%zzz%", "%heatmap-toolbar%", "%team 5%", "%ab%", "%-4242%"]) {
    for (const [label, q] of [["rows", `SELECT f.id FROM feature_flags f WHERE ${where(p)} ORDER BY f.created_at DESC, f.id DESC LIMIT 100`], ["count", `SELECT count(*) FROM feature_flags f WHERE ${where(p)}`]]) {
      const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ANALYZE ${q}`)
      const plan = rows.map((r) => r["QUERY PLAN"])
      console.log(`== ${label} ${p}: ${plan.at(-1)}  | ${plan.filter((l) => /Scan/.test(l)).map((l) => l.trim().split("(")[0]).join(" / ")}`)
    }
  }
}))
await runtime.dispose()
process.exit(0)
