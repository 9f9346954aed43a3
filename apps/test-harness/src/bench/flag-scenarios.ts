import { FeatureFlagRepository, newFlagColumns, Transactions } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { HedgerowFixture, RefreshStatistics } from "./hedgerow-target.ts"
import type { Scenario } from "./scenario.ts"

/**
 * Flag keys of a plausible product: area × feature × serial. A search for one area-feature pair finds
 * one flag in 200, which at 10,000 flags is a 50-flag page, as a person narrowing the list would get.
 */
const AREAS = ["checkout", "search", "billing", "onboarding", "analytics", "mobile", "web", "payments", "settings", "reports"]
const FEATURES = [
  "redesign", "beta", "rollout", "experiment", "killswitch", "dark-mode", "new-api", "v2", "pricing", "cache",
  "sidebar", "export", "import", "alerts", "sso", "audit", "notifications", "themes", "graphs", "limits"
]
export const SEARCH_TERM = "checkout-redesign"

const capitalized = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`

/** Mostly partial boolean rollouts, some with a person condition, some multivariate. */
const filtersOf = (i: number) => {
  switch (i % 7) {
    case 5:
      return { groups: [{ properties: [{ key: "email", value: "@example.com", operator: "icontains", type: "person" }], rollout_percentage: 100 }] }
    case 6:
      return {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
      }
    default:
      return { groups: [{ properties: [], rollout_percentage: (i * 13) % 101 }] }
  }
}

/**
 * `count` flags in one transaction through core's repository, with the columns core derives for any
 * new flag: what an import would write, without 10,000 HTTP round trips (and their activity entries and
 * dashboards, which no list reads).
 */
const seedFlags = (count: number) =>
  Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    const flags = yield* FeatureFlagRepository
    const transactions = yield* Transactions
    yield* transactions.run(Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => {
        const area = AREAS[i % AREAS.length]!
        const feature = FEATURES[Math.floor(i / AREAS.length) % FEATURES.length]!
        const columns = newFlagColumns(
          { key: `${area}-${feature}-${i}`, name: `${capitalized(area)} ${feature} flag ${i}`, filters: filtersOf(i) },
          fixture.userId
        )
        return flags.insert({ ...columns, project_id: fixture.projectId, creation_context: "feature_flags", created_by_id: fixture.userId })
      },
      { discard: true }
    ))
  })

/** One flag made through the API, as a person would make it (usage dashboard and activity entry included). */
const createThroughApi = (key: string) =>
  Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    const response = yield* Effect.promise(() =>
      fetch(`${fixture.baseUrl}/api/projects/${fixture.projectId}/feature_flags/`, {
        method: "POST",
        headers: { ...fixture.authorization, "content-type": "application/json" },
        body: JSON.stringify({ key, name: "Benchmarked flag", filters: filtersOf(5), tags: ["bench"] })
      }))
    const body = (yield* Effect.promise(() => response.json())) as { readonly id?: number }
    if (response.status !== 201 || typeof body.id !== "number") {
      return yield* Effect.fail(new Error(`creating ${key} answered ${response.status}: ${JSON.stringify(body)}`))
    }
    return body.id
  })

const flagsPath = (projectId: number) => `/api/projects/${projectId}/feature_flags/`

/**
 * The flag benchmarks, in the order they run: the list search first over exactly `seedFlags` flags,
 * then single-flag reads and writes in a project of that size.
 */
export const flagScenarios = (options: { readonly seedFlags: number }): ReadonlyArray<Scenario> => [
  {
    name: `GET flags ?search= over ${options.seedFlags.toLocaleString("en-US")} flags`,
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedFlags(options.seedFlags)
      // The embedded store's background analyzer (or autovacuum on a server) would get there in time;
      // not waiting for it keeps the run short, and measures the steady state a user sees shortly after
      // an import.
      yield* (yield* RefreshStatistics).run
      return { method: "GET", path: `${flagsPath(fixture.projectId)}?search=${SEARCH_TERM}`, headers: fixture.authorization } as const
    })
  },
  {
    name: "GET flag",
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      const id = yield* createThroughApi("bench-read")
      return { method: "GET", path: `${flagsPath(fixture.projectId)}${id}/`, headers: fixture.authorization } as const
    })
  },
  {
    name: "PATCH flag",
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      const id = yield* createThroughApi("bench-patched")
      return {
        method: "PATCH",
        path: `${flagsPath(fixture.projectId)}${id}/`,
        headers: { ...fixture.authorization, "content-type": "application/json" },
        // A real change on every request: a new name, so each PATCH bumps the version and logs activity.
        body: JSON.stringify({ name: "Renamed [<id>]" }),
        idReplacement: true
      } as const
    })
  },
  {
    name: "POST flag",
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      return {
        method: "POST",
        path: flagsPath(fixture.projectId),
        headers: { ...fixture.authorization, "content-type": "application/json" },
        body: JSON.stringify({ key: "bench-[<id>]", name: "Created under load", filters: filtersOf(0) }),
        idReplacement: true
      } as const
    })
  }
]
