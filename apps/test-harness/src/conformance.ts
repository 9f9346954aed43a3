import { runScenarios, discover, primaryOf, type Outcome } from "./runner.ts"
import { scenarios } from "./scenarios/index.ts"
import { httpTarget } from "./targets/http.ts"
import { preparers } from "./targets/index.ts"
import { onFreshDatabase } from "./targets/prepared.ts"

/**
 * `npm run conformance -- --url URL --key KEY` checks any deployment with one key (scenarios that need
 * operator fixtures or the harness's own DNS and mail servers are reported as not applicable); without
 * --url it runs the harness's own targets (`--target core|server|process`, default all three) on PGlite,
 * or with `--postgres SERVER_URL` each on a fresh database it creates on that server and drops afterwards.
 */
const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? undefined : args[index + 1]
}

const report = (name: string, outcomes: ReadonlyArray<Outcome>) => {
  for (const outcome of outcomes) {
    const mark = outcome.status === "passed" ? "ok  " : outcome.status === "failed" ? "FAIL" : "n/a "
    console.log(`${mark} [${name}] ${outcome.scenario}${outcome.error ? `\n       ${outcome.error.replace(/\n/g, "\n       ")}` : ""}`)
  }
}

const main = async () => {
  const all: Array<Outcome> = []
  const url = flag("url")
  if (url !== undefined) {
    const key = flag("key") ?? process.env["HEDGEROW_API_KEY"]
    if (key === undefined) throw new Error("--url needs --key (or HEDGEROW_API_KEY)")
    const target = httpTarget("url", url.replace(/\/$/, ""))
    const outcomes = await runScenarios(scenarios, { target, primary: await discover(target, key) })
    report("url", outcomes)
    all.push(...outcomes)
  } else {
    const wanted = flag("target")
    const postgres = flag("postgres")
    for (const [name, prepare] of Object.entries(preparers)) {
      if (wanted !== undefined && wanted !== name) continue
      const prepared = await (postgres === undefined ? prepare() : onFreshDatabase(postgres, prepare))
      try {
        const outcomes = await runScenarios(scenarios, {
          target: prepared.target,
          primary: primaryOf(prepared.world),
          world: prepared.world,
          network: prepared.network
        })
        report(name, outcomes)
        all.push(...outcomes)
      } finally {
        await prepared.close()
      }
    }
  }
  const passed = all.filter((o) => o.status === "passed").length
  const failed = all.filter((o) => o.status === "failed").length
  const notApplicable = all.filter((o) => o.status === "not applicable").length
  if (notApplicable > 0) console.log(`${notApplicable} scenario(s) not applicable to this target (need operator fixtures, raw HTTP, or the harness's DNS and mail servers).`)
  console.log(`${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 ? 1 : 0
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 2
})
