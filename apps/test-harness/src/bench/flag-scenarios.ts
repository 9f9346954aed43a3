import { Effect } from "effect"
import { atLeast, atMost } from "./goals.ts"
import { FlagSeeder, HedgerowFixture } from "./hedgerow-target.ts"
import { filtersOf, SEARCH_TERM } from "./seed-flags.ts"
import type { Scenario } from "./scenario.ts"

export const flagsPath = (projectId: number) => `/api/projects/${projectId}/feature_flags/`

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
    yield* (yield* FlagSeeder).seed(fixture, yield* liveFlags, count)
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

/** A list search for one area-feature pair once the project holds `searchFlags` flags. */
const searchScenario = (searchFlags: number): Scenario => ({
  name: `GET flags ?search= over ${count(searchFlags)} flags`,
  setup: Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    yield* seedUpTo(searchFlags)
    return { method: "GET", path: `${flagsPath(fixture.projectId)}?search=${SEARCH_TERM}`, headers: fixture.authorization } as const
  })
})

/** A flag read by its id; the start of `hedgerow serve` and its request log are measured on it too. */
export const getFlag: Scenario = {
  name: "GET flag",
  throughputGoal: atLeast(0.2),
  cpuGoal: atMost(100),
  setup: Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    const id = yield* createThroughApi("bench-read")
    return { method: "GET", path: `${flagsPath(fixture.projectId)}${id}/`, headers: fixture.authorization } as const
  })
}

/**
 * The flag benchmarks, in the order they run: the default list page of a project of `listFlags` flags,
 * remote evaluation and the definitions for local evaluation over the same flags, the list search once
 * the project holds `searchFlags` (left out when not given), then single-flag reads and writes in a
 * project of that size. Each list scenario seeds the project up to its count, so the names hold in any
 * order. The CPU goals hold for `hedgerow serve` as it ships, on the embedded store (shipped.ts).
 */
export const flagScenarios = (options: { readonly listFlags: number; readonly searchFlags?: number | undefined }): ReadonlyArray<Scenario> => [
  {
    name: `GET flags, a project of ${count(options.listFlags)} flags`,
    throughputGoal: atLeast(0.05),
    cpuGoal: atMost(250),
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      yield* seedUpTo(options.listFlags)
      return { method: "GET", path: flagsPath(fixture.projectId), headers: fixture.authorization } as const
    })
  },
  {
    name: `POST /flags?v=2, a project of ${count(options.listFlags)} flags`,
    throughputGoal: atLeast(0.3),
    cpuGoal: atMost(150),
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
    cpuGoal: atMost(50),
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
  ...(options.searchFlags === undefined ? [] : [searchScenario(options.searchFlags)]),
  getFlag,
  {
    name: "PATCH flag",
    throughputGoal: atLeast(0.03),
    cpuGoal: atMost(1000),
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
    cpuGoal: atMost(1000),
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
