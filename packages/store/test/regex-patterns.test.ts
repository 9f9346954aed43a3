import { assert, layer } from "@effect/vitest"
import { Authentication, bodyOf, Bootstrap, FlagEvaluationService, ProjectService, type ProjectId, regexPatternError } from "@hedgerow/core"
import { FlagRepository, Freshness, newFlagColumns, Transactions } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { eventually, untilLive } from "./support.ts"

/**
 * Each project's regex patterns are compiled with its flags in memory, before a request evaluates them:
 * two projects of many patterns answer every request from patterns already compiled, whichever project
 * asked last, and a project whose flags are read afresh keeps the patterns it had compiled.
 */

/** Patterns per project: more than a thousand in the two. */
const PATTERNS = 700

/** Distinct patterns as people write them, on the properties SDKs send. */
const ordinary = (i: number, project: string): readonly [key: string, pattern: string] =>
  [
    ["email", `@${project}-customer-${i}\\.com$`] as const,
    ["$current_url", `^https?://(www\\.)?${project}-${i}\\.example\\.(com|org)/`] as const,
    ["$app_version", `^${i}\\.(2|3)\\.\\d+$`] as const,
    ["email", `^${project}-${i}-[a-z0-9]{4,}@example\\.com$`] as const
  ][i % 4]!

/** Flags of the project whose patterns cost most to compile. */
const COSTLY = 200

/** Patterns among the costliest to compile that a write accepts: their compiling is what a project keeps. */
const costly = (i: number, project: string): readonly [key: string, pattern: string] =>
  ["email", `(?i)^${"\\p{L}".repeat(16)}-${project}-${i}$`]

const body = (token: string, i: number) => ({
  token,
  distinct_id: `person-${i}`,
  person_properties: { email: `person-${i}@example.com`, $current_url: "https://www.example.com/settings", $app_version: "1.2.3" }
})

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 120_000, excludeTestServices: true })(`regex patterns compiled per project on ${backend.name}`, (it) => {
  /** A project with a regex flag for each of its patterns, and its public token. */
  const projectWithPatterns = <E, R>(
    name: string,
    create: (name: string) => Effect.Effect<ProjectId, E, R>,
    patternOf: typeof ordinary = ordinary,
    count = PATTERNS
  ) =>
    Effect.gen(function*() {
      const project = yield* create(name)
      const flags = yield* FlagRepository
      const patterns = Array.from({ length: count }, (_, i) => patternOf(i, name))
      yield* (yield* Transactions).run(Effect.forEach(patterns, ([key, value], i) => {
        const properties = [{ key, value, operator: i % 3 === 0 ? "not_regex" : "regex", type: "person" }]
        const columns = newFlagColumns({ key: `${name}-${i}`, filters: { groups: [{ properties, rollout_percentage: 100 }] } }, null)
        return flags.insert({ ...columns, project_id: project, creation_context: "feature_flags", created_by_id: null })
      }, { discard: true }))
      const sql = yield* SqlClient.SqlClient
      const token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${project}`)[0]!.token
      yield* eventually(Effect.map(FlagEvaluationService.use((s) => s.snapshot(project)), (s) => s.prepared.flags.length === count))
      return { project, token, patterns: patterns.map(([, pattern]) => pattern) }
    })

  /** The least time of `times` `/flags` requests, in ms, and whether every one answered all `flags`. */
  const asked = (token: string, times: number, flags = PATTERNS) =>
    Effect.gen(function*() {
      const evaluation = yield* FlagEvaluationService
      let least = Infinity
      let whole = true
      for (let i = 0; i < times; i++) {
        const started = performance.now()
        const answer = yield* evaluation.flags(body(token, i), {})
        least = Math.min(least, performance.now() - started)
        whole &&= !answer.errorsWhileComputingFlags && answer.flags.length === flags
      }
      return { least, whole }
    })

  it.effect("two projects' patterns do not make way for each other, and survive their flags being read afresh", () =>
    Effect.gen(function*() {
      yield* untilLive
      const boot = yield* (yield* Bootstrap).run({ email: "owner@regex.example" })
      const owner = yield* Authentication.use((auth) => auth.authenticate(boot.personal_api_key))
      const create = (name: string) =>
        Effect.map(ProjectService.use((s) => s.create(owner, boot.organization_id, bodyOf({ name }))), (created) => created.id)
      const first = yield* projectWithPatterns("first", create)
      const second = yield* projectWithPatterns("second", create)
      // Each pattern's first search builds its automaton's first states: one request each before timing.
      yield* asked(first.token, 1)
      yield* asked(second.token, 1)
      for (let round = 0; round < 3; round++) {
        for (const { token } of [first, second]) {
          const { least, whole } = yield* asked(token, 3)
          assert.isTrue(whole)
          assert.isBelow(least, 30, `round ${round}`)
        }
      }
      // A user's change has every project's flags read afresh: the patterns they had compiled are taken
      // over, so the first request after costs far less than compiling them again would.
      const third = yield* projectWithPatterns("third", create, costly, COSTLY)
      // Their automata have many classes: the first requests build their states, within the budget each.
      yield* asked(third.token, 5, COSTLY)
      const started = performance.now()
      for (const pattern of third.patterns) assert.isUndefined(regexPatternError(pattern))
      const compiling = performance.now() - started
      const freshness = yield* Freshness
      const sql = yield* SqlClient.SqlClient
      const firstAfter: Array<number> = []
      for (let login = 0; login < 3; login++) {
        const version = freshness.version(["users"])
        yield* sql`UPDATE users SET last_login = now() WHERE email = 'owner@regex.example'`
        yield* eventually(Effect.sync(() => freshness.version(["users"]) !== version))
        const { least, whole } = yield* asked(third.token, 1, COSTLY)
        assert.isTrue(whole)
        firstAfter.push(least)
      }
      const after = firstAfter.map((ms) => ms.toFixed(1)).join(", ")
      assert.isBelow(Math.min(...firstAfter), compiling / 3, `${after} ms after; compiling ${compiling.toFixed(1)} ms`)
    }), 120_000)
}))
