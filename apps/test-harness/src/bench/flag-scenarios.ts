import type { ProjectId, UserId } from "@hedgerow/core"
import { FlagRepository, newFlagColumns, Transactions } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { atLeast } from "./goals.ts"
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

export const flagsPath = (projectId: number) => `/api/projects/${projectId}/feature_flags/`

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

/** The project seeded flags go to, and the user they are created by. */
export interface SeedTenant {
  readonly projectId: ProjectId
  readonly userId: UserId
}

/**
 * Flags `from` to `to - 1` of the plausible product, in one transaction through core's repository, with
 * the columns core derives for any new flag: what an import would write, without 10,000 HTTP round trips
 * (and their activity entries and dashboards, which no list reads). Ranges that do not overlap never
 * share a key, so a project can be seeded in steps.
 */
export const seedFlags = (tenant: SeedTenant, from: number, to: number) =>
  Effect.gen(function*() {
    const flags = yield* FlagRepository
    const transactions = yield* Transactions
    yield* transactions.run(Effect.forEach(
      Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i),
      (i) => {
        const area = AREAS[i % AREAS.length]!
        const feature = FEATURES[Math.floor(i / AREAS.length) % FEATURES.length]!
        const columns = newFlagColumns(
          { key: `${area}-${feature}-${i}`, name: `${capitalized(area)} ${feature} flag ${i}`, filters: filtersOf(i) },
          tenant.userId
        )
        return flags.insert({ ...columns, project_id: tenant.projectId, creation_context: "feature_flags", created_by_id: tenant.userId })
      },
      { discard: true }
    ))
  })

/** Live flags in the fixture's project, as the list endpoint counts them. */
const liveFlags = Effect.gen(function*() {
  const fixture = yield* HedgerowFixture
  const response = yield* Effect.promise(() =>
    fetch(`${fixture.baseUrl}${flagsPath(fixture.projectId)}?limit=1`, { headers: fixture.authorization }))
  const body = (yield* Effect.promise(() => response.json())) as { readonly count?: number }
  if (response.status !== 200 || typeof body.count !== "number") {
    return yield* Effect.fail(new Error(`counting flags answered ${response.status}: ${JSON.stringify(body)}`))
  }
  return body.count
})

/** Seeds the fixture's project up to `count` live flags, whatever earlier scenarios left in it. */
const seedUpTo = (count: number) =>
  Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    yield* seedFlags(fixture, yield* liveFlags, count)
    // The embedded store's background analyzer (or autovacuum on a server) would get there in time;
    // not waiting for it keeps the run short, and measures the steady state a user sees shortly after
    // an import.
    yield* (yield* RefreshStatistics).run
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

const count = (n: number) => n.toLocaleString("en-US")

/** The project's public token, which PostHog's SDKs send to evaluate flags, read through the API. */
export const projectToken = Effect.gen(function*() {
  const fixture = yield* HedgerowFixture
  const response = yield* Effect.promise(() =>
    fetch(`${fixture.baseUrl}/api/organizations/${fixture.organizationId}/projects/${fixture.projectId}/`, { headers: fixture.authorization }))
  const body = (yield* Effect.promise(() => response.json())) as { readonly api_token?: string }
  if (response.status !== 200 || typeof body.api_token !== "string") {
    return yield* Effect.fail(new Error(`reading the project answered ${response.status}: ${JSON.stringify(body)}`))
  }
  return body.api_token
})

/**
 * The flag benchmarks, in the order they run: the default list page of a project of `listFlags` flags,
 * remote evaluation and the definitions for local evaluation over the same flags, the list search once
 * the project holds `searchFlags`, then single-flag reads and writes in a project of
 * that size. Each list scenario seeds the project up to its count, so the names hold in any order.
 */
export const flagScenarios = (options: { readonly listFlags: number; readonly searchFlags: number }): ReadonlyArray<Scenario> => [
  {
    name: `GET flags, a project of ${count(options.listFlags)} flags`,
    throughputGoal: atLeast(0.05),
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedUpTo(options.listFlags)
      return { method: "GET", path: flagsPath(fixture.projectId), headers: fixture.authorization } as const
    })
  },
  {
    name: `POST /flags?v=2, a project of ${count(options.listFlags)} flags`,
    throughputGoal: atLeast(0.3),
    setup: Effect.gen(function*() {
      yield* seedUpTo(options.listFlags)
      // A new person on every request, as an SDK without a personal key asks for each of its users.
      return {
        method: "POST",
        path: "/flags/?v=2",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: yield* projectToken, distinct_id: "person-[<id>]", person_properties: { email: "someone@example.com" } }),
        idReplacement: true
      } as const
    })
  },
  {
    name: `GET definitions for local evaluation, a project of ${count(options.listFlags)} flags`,
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedUpTo(options.listFlags)
      return { method: "GET", path: `/api/feature_flag/local_evaluation?token=${yield* projectToken}`, headers: fixture.authorization } as const
    })
  },
  {
    name: `GET definitions again, unchanged (If-None-Match: 304), a project of ${count(options.listFlags)} flags`,
    throughputGoal: atLeast(0.4),
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedUpTo(options.listFlags)
      const path = `/api/feature_flag/local_evaluation?token=${yield* projectToken}`
      // An SDK polling again sends the ETag of the definitions it holds.
      const response = yield* Effect.promise(() => fetch(`${fixture.baseUrl}${path}`, { headers: fixture.authorization }))
      const etag = response.headers.get("etag")
      if (etag === null) return yield* Effect.fail(new Error("the definitions came without an ETag"))
      return { method: "GET", path, headers: { ...fixture.authorization, "if-none-match": etag }, expectedStatus: 304 } as const
    })
  },
  {
    name: `GET flags ?search= over ${count(options.searchFlags)} flags`,
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedUpTo(options.searchFlags)
      return { method: "GET", path: `${flagsPath(fixture.projectId)}?search=${SEARCH_TERM}`, headers: fixture.authorization } as const
    })
  },
  {
    name: "GET flag",
    throughputGoal: atLeast(0.2),
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      const id = yield* createThroughApi("bench-read")
      return { method: "GET", path: `${flagsPath(fixture.projectId)}${id}/`, headers: fixture.authorization } as const
    })
  },
  {
    name: "PATCH flag",
    throughputGoal: atLeast(0.03),
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
    throughputGoal: atLeast(0.03),
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
