import { Bootstrap, conditionsOf, evaluateFlags, FlagEvaluationService, type FlagResult, GroupTypeService, type ProjectId, resultsByKey } from "@hedgerow/core"
import { FlagRepository, newFlagColumns } from "@hedgerow/core/ports"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect, ManagedRuntime, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { PostHog } from "posthog-node"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import {
  COHORTS,
  generateFlags,
  generatePerson,
  GROUP_TYPES,
  type Person,
  random,
  sdkPayloadOf
} from "../../../packages/core/test/evaluation-cases.ts"

/**
 * posthog-node, unchanged, pointed at a real Hedgerow server: with a personal API key it polls the
 * definitions and evaluates locally, and every flag it decides must read as Hedgerow's evaluator reads
 * it. The flags are the core differential test's (every operator, variants and payloads, overrides,
 * holdouts, groups, cohorts, dependency chains, cycles and missing flags, inactive and deleted flags),
 * written to the store as they are, since the API refuses some on purpose (cycles). HEDGEROW_SDK_PAIRS
 * sets the number of (flag, person) pairs; HEDGEROW_SDK_SEED the seed.
 */

const PAIRS = Number(process.env["HEDGEROW_SDK_PAIRS"] ?? 4_000)
const SEED = Number(process.env["HEDGEROW_SDK_SEED"] ?? 20_260_202)

/** What a flag reads as: its variant, true, false, or undefined when not answered. */
const valueOf = (result: FlagResult | undefined) => (result === undefined ? undefined : result.variant ?? result.enabled)

describe("posthog-node 5.70.0 against a Hedgerow server", () => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  const next = random(SEED)
  const flags = generateFlags(next)
  let url = ""
  let project = 0 as ProjectId
  let token = ""
  let key = ""

  beforeAll(async () => {
    await runtime.runPromise(Effect.gen(function*() {
      url = yield* HedgerowServer.baseUrl
      const boot = yield* (yield* Bootstrap).run({ email: "sdk@example.com" })
      project = boot.project_id
      key = boot.personal_api_key
      const sql = yield* SqlClient.SqlClient
      token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${project}`)[0]!.token
      // The cohorts the generated flags name, under the ids they name them by; 4 and 9 are static.
      for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
        const definition = COHORTS.get(String(id))
        yield* sql`
          INSERT INTO cohorts (id, project_id, name, description, groups, filters, is_static, is_calculating, count, deleted)
          VALUES (${id}, ${project}, ${`Cohort ${id}`}, '', '[]'::jsonb,
                  ${JSON.stringify(definition === undefined ? {} : { properties: definition })}::jsonb,
                  ${definition === undefined}, false, null, false)`
      }
      // The flags under the ids they name each other by (from 100, in order), as the store writes them.
      yield* sql`SELECT setval(pg_get_serial_sequence('feature_flags', 'id'), 99)`
      const repository = yield* FlagRepository
      for (const flag of flags) {
        const stored = yield* repository.insert({
          ...newFlagColumns({
            key: flag.key,
            name: flag.name,
            filters: flag.filters,
            active: flag.active,
            deleted: flag.deleted,
            ensure_experience_continuity: flag.ensure_experience_continuity
          }, null),
          project_id: project,
          creation_context: "feature_flags",
          created_by_id: null
        }).pipe(Effect.orDie)
        expect(stored.id).toBe(flag.id)
      }
      // The project's group types, by name, at the indexes the flags aggregate by, as events register them.
      for (const [index, name] of Object.entries(GROUP_TYPES)) {
        expect(yield* GroupTypeService.use((s) => s.register(project, name))).toEqual(Option.some(Number(index)))
      }
      // Written outside the server's requests, the flags reach its memory through the change feed.
      const live = flags.filter((flag) => !flag.deleted).length
      yield* FlagEvaluationService.use((s) => s.snapshot(project)).pipe(
        Effect.flatMap((snapshot) =>
          snapshot.prepared.flags.length === live && JSON.stringify(snapshot.prepared.groupTypes) === JSON.stringify(GROUP_TYPES)
            ? Effect.void
            : Effect.fail("not yet")
        ),
        Effect.retry(Schedule.spaced("20 millis")),
        Effect.timeout("10 seconds"),
        Effect.orDie
      )
    }))
  }, 60_000)

  afterAll(async () => {
    await runtime.dispose()
  })

  /** posthog-node with the personal key, evaluating locally, polling only when told; each response's URL and status to `seen`. */
  const localClient = (seen: (url: string, status: number) => void) =>
    new PostHog(token, {
      host: url,
      personalApiKey: key,
      featureFlagsPollingInterval: null,
      disableGeoip: true,
      flushAt: 1_000_000,
      fetch: async (input, init) => {
        const response = await fetch(input, init as RequestInit)
        seen(String(input), response.status)
        return response as never
      }
    })

  /** Puts the person's distinct id on the lists of the static cohorts that hold it, as the API would. */
  const listed = (person: Person) =>
    runtime.runPromise(Effect.gen(function*() {
      if (person.cohort_members.length === 0) return
      const sql = yield* SqlClient.SqlClient
      for (const cohort of person.cohort_members) {
        yield* sql`INSERT INTO cohort_members (cohort_id, distinct_id) VALUES (${cohort}, ${person.distinct_id}) ON CONFLICT DO NOTHING`
      }
      // Written outside the server's requests, the members reach the lists it holds through the change
      // feed, as flags do: the server answers the person as the lists say once it has heard.
      const evaluation = yield* FlagEvaluationService
      const snapshot = yield* evaluation.snapshot(project)
      const truth = resultsByKey(evaluateFlags(snapshot.prepared, {
        distinct_id: person.distinct_id,
        person_properties: person.person_properties,
        groups: person.groups,
        group_properties: person.group_properties,
        cohort_members: new Set(person.cohort_members)
      }))
      yield* evaluation.flags({
        token,
        distinct_id: person.distinct_id,
        person_properties: person.person_properties,
        groups: person.groups,
        group_properties: person.group_properties
      }, {}).pipe(
        Effect.flatMap((answer) => (answer.flags.every((result) => valueOf(result) === valueOf(truth.get(result.key))) ? Effect.void : Effect.fail("not yet"))),
        Effect.retry(Schedule.spaced("10 millis")),
        Effect.timeout("10 seconds")
      )
    }).pipe(Effect.orDie))

  /** Hedgerow's evaluation of every flag for a person, through the service the server answers from. */
  const hedgerow = (person: Person) => {
    const device = person.person_properties["$device_id"]
    return runtime.runPromise(FlagEvaluationService.use((s) => s.snapshot(project))).then((snapshot) =>
      evaluateFlags(snapshot.prepared, {
        distinct_id: person.distinct_id,
        device_id: typeof device === "string" ? device : undefined,
        person_properties: person.person_properties,
        groups: person.groups,
        group_properties: person.group_properties,
        cohort_members: new Set(person.cohort_members)
      })
    )
  }

  it(`evaluating locally from Hedgerow's definitions, agrees with Hedgerow on every pair it decides (${PAIRS} pairs), and polls again with a 304`, { timeout: 300_000 }, async () => {
    const statuses: Array<{ readonly url: string; readonly status: number }> = []
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const client = localClient((seen, status) => statuses.push({ url: seen, status }))
    try {
      // The first reload joins the load the client starts on its own; the second polls again.
      await client.reloadFeatureFlags()
      expect(await client.waitForLocalEvaluationReady(10_000)).toBe(true)
      await client.reloadFeatureFlags()
      const polls = statuses.filter((poll) => poll.url.includes("/flags/definitions"))
      expect(polls.map((poll) => poll.status)).toEqual([200, 304])
      expect(polls[0]!.url).toBe(`${url}/flags/definitions?token=${token}&send_cohorts`)

      const stored = flags.filter((flag) => !flag.deleted)
      const people = Math.ceil(PAIRS / stored.length)
      let pairs = 0
      let decided = 0
      let mismatches = 0
      const examples: Array<string> = []
      for (let i = 0; i < people; i++) {
        const person = generatePerson(next, i, Date.now())
        await listed(person)
        const local = await client.getAllFlagsAndPayloads(person.distinct_id, {
          personProperties: person.person_properties as never,
          groups: person.groups,
          groupProperties: person.group_properties as never,
          onlyEvaluateLocally: true
        })
        const ours = resultsByKey(await hedgerow(person))
        for (const flag of stored) {
          pairs++
          const theirs = local.featureFlags ?? {}
          if (!(flag.key in theirs)) continue
          decided++
          const result = ours.get(flag.key)
          const payload = result === undefined ? undefined : sdkPayloadOf(result)
          if (valueOf(result) !== theirs[flag.key] || JSON.stringify(payload) !== JSON.stringify(local.featureFlagPayloads?.[flag.key])) {
            mismatches++
            if (examples.length < 5) {
              examples.push(JSON.stringify({ flag: flag.key, person, sdk: [theirs[flag.key], local.featureFlagPayloads?.[flag.key]], hedgerow: [valueOf(result), payload] }))
            }
          }
        }
      }
      console.log(`posthog-node local: ${pairs} pairs, ${decided} decided by the SDK, ${mismatches} mismatches`)
      expect(examples).toEqual([])
      expect(mismatches).toBe(0)
      expect(decided).toBeGreaterThan(pairs / 3)
    } finally {
      warn.mockRestore()
      await client.shutdown()
    }
  })

  it(`evaluating remotely (no personal key: POST /flags?v=2), agrees with Hedgerow on every pair and with local evaluation wherever that decides (${PAIRS} pairs)`, { timeout: 300_000 }, async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    // The SDK reports the project's dependency cycles (errorsWhileComputingFlags) on every answer.
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const requests: Array<string> = []
    const fetchRecorded = async (input: unknown, init: unknown) => {
      requests.push(String(input))
      return (await fetch(input as string, init as RequestInit)) as never
    }
    const remote = new PostHog(token, { host: url, disableGeoip: true, flushAt: 1_000_000, fetch: fetchRecorded })
    const local = new PostHog(token, { host: url, personalApiKey: key, featureFlagsPollingInterval: null, disableGeoip: true, flushAt: 1_000_000 })
    try {
      await local.reloadFeatureFlags()
      const byKey = new Map(flags.filter((flag) => !flag.deleted).map((flag) => [flag.key, flag]))
      const people = Math.ceil(PAIRS / byKey.size)
      let pairs = 0
      let localDecided = 0
      let mismatches = 0
      const examples: Array<string> = []
      const note = (what: object) => {
        mismatches++
        if (examples.length < 5) examples.push(JSON.stringify(what))
      }
      for (let i = 0; i < people; i++) {
        const person = generatePerson(next, 10_000 + i, Date.now())
        await listed(person)
        const options = {
          personProperties: person.person_properties as never,
          groups: person.groups,
          groupProperties: person.group_properties as never
        }
        const answered = await remote.getAllFlagsAndPayloads(person.distinct_id, options)
        const decided = await local.getAllFlagsAndPayloads(person.distinct_id, { ...options, onlyEvaluateLocally: true })
        const ours = resultsByKey(await hedgerow(person))
        for (const [flagKey, flag] of byKey) {
          pairs++
          const result = ours.get(flagKey)
          // `/flags` answers active flags only; a flag the service cannot evaluate (a cycle) is absent from both.
          const expected = flag.active ? valueOf(result) : undefined
          const theirs = answered.featureFlags?.[flagKey]
          const payload = result === undefined || !flag.active ? undefined : sdkPayloadOf(result)
          const theirPayload = answered.featureFlagPayloads?.[flagKey]
          if (theirs !== expected || (expected !== false && JSON.stringify(theirPayload) !== JSON.stringify(payload))) {
            note({ flag: flagKey, person, remote: [theirs, theirPayload], hedgerow: [expected, payload, result?.reason] })
          }
          const locally = decided.featureFlags ?? {}
          if (!(flagKey in locally) || !flag.active) continue
          localDecided++
          if (locally[flagKey] !== theirs) note({ flag: flagKey, person, remote: theirs, local: locally[flagKey] })
        }
      }
      console.log(`posthog-node remote: ${pairs} pairs, ${localDecided} also decided locally, ${mismatches} mismatches, ${requests.length} requests`)
      expect(examples).toEqual([])
      expect(mismatches).toBe(0)
      expect(requests.every((request) => request === `${url}/flags/?v=2`)).toBe(true)
      expect(requests.length).toBe(people)
    } finally {
      warn.mockRestore()
      error.mockRestore()
      await remote.shutdown()
      await local.shutdown()
    }
  })

  it("turns a group flag on for `groups: { company: 'acme' }`, locally and remotely, and not for the index or another type's name", { timeout: 60_000 }, async () => {
    const flagKey = "for-companies-by-name"
    // Index 3 has no group type.
    const orphanKey = "for-index-without-type"
    await runtime.runPromise(Effect.gen(function*() {
      for (const [key, index] of [[flagKey, 0], [orphanKey, 3]] as const) {
        yield* FlagRepository.use((repository) =>
          repository.insert({
            ...newFlagColumns({ key, filters: { aggregation_group_type_index: index, groups: [{ properties: [], rollout_percentage: 100 }] } }, null),
            project_id: project,
            creation_context: "feature_flags",
            created_by_id: null
          })).pipe(Effect.orDie)
      }
      yield* FlagEvaluationService.use((s) => s.snapshot(project)).pipe(
        Effect.flatMap((snapshot) => (snapshot.prepared.byKey.has(orphanKey) ? Effect.void : Effect.fail("not yet"))),
        Effect.retry(Schedule.spaced("20 millis")),
        Effect.timeout("10 seconds"),
        Effect.orDie
      )
    }))
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const local = new PostHog(token, { host: url, personalApiKey: key, featureFlagsPollingInterval: null, disableGeoip: true, flushAt: 1_000_000 })
    const remote = new PostHog(token, { host: url, disableGeoip: true, flushAt: 1_000_000 })
    try {
      await local.reloadFeatureFlags()
      const ask = (client: PostHog, groups: Record<string, string>, onlyEvaluateLocally = false, key = flagKey) =>
        client.getFeatureFlag(key, "someone", { groups, sendFeatureFlagEvents: false, onlyEvaluateLocally })
      expect(await ask(local, { company: "acme" }, true)).toBe(true)
      expect(await ask(remote, { company: "acme" })).toBe(true)
      for (const groups of [{}, { "0": "acme" }, { team: "acme" }]) {
        expect(await ask(local, groups, true)).toBe(false)
        expect(await ask(remote, groups)).toBe(false)
      }
      // A flag on an index no group type holds: the SDK cannot decide it and asks /flags, which answers off.
      const anyGroups = { company: "acme", team: "red", "3": "x" }
      expect(await ask(local, anyGroups, true, orphanKey)).toBeUndefined()
      expect(await ask(local, anyGroups, false, orphanKey)).toBe(false)
      expect(await ask(remote, anyGroups, false, orphanKey)).toBe(false)
    } finally {
      warn.mockRestore()
      error.mockRestore()
      await local.shutdown()
      await remote.shutdown()
    }
  })

  it("evaluating locally, asks /flags about a flag on a static cohort's list (directly or through dynamic cohorts) and reads Hedgerow's answer", { timeout: 300_000 }, async () => {
    // The cohorts whose answer needs a list: the static ones, and the dynamic ones naming them.
    const needsList = new Set(["4", "5", "7", "8", "9"])
    const onLists = flags.filter((flag) =>
      flag.active && !flag.deleted &&
      conditionsOf(flag.filters).groups.some((group) =>
        group.properties.some((property) => property.type === "cohort" && needsList.has(String(property.json["value"])))))
    expect(onLists.length).toBeGreaterThan(0)
    const asked: Array<string> = []
    const client = localClient((seen) => {
      if (seen.includes("/flags/?")) asked.push(seen)
    })
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    try {
      await client.reloadFeatureFlags()
      let pairs = 0
      let on = 0
      const examples: Array<string> = []
      for (let i = 0; i < 30; i++) {
        const person = generatePerson(next, 20_000 + i, Date.now())
        await listed(person)
        const ours = resultsByKey(await hedgerow(person))
        for (const flag of onLists) {
          pairs++
          const theirs = await client.getFeatureFlag(flag.key, person.distinct_id, {
            personProperties: person.person_properties as never,
            groups: person.groups,
            groupProperties: person.group_properties as never,
            sendFeatureFlagEvents: false
          })
          const expected = valueOf(ours.get(flag.key))
          if (theirs === true) on++
          if (theirs !== expected && examples.length < 5) examples.push(JSON.stringify({ flag: flag.key, filters: flag.filters, person, sdk: theirs, hedgerow: expected }))
        }
      }
      console.log(`posthog-node on static cohorts: ${pairs} pairs, ${asked.length} asked of /flags, ${on} on`)
      expect(examples).toEqual([])
      expect(asked.length).toBeGreaterThan(0)
      expect(on).toBeGreaterThan(0)
    } finally {
      warn.mockRestore()
      error.mockRestore()
      await client.shutdown()
    }
  })

  it("reads a remote configuration flag's payload with getRemoteConfigPayload, parsed from the stored JSON text, and nothing for another flag", { timeout: 60_000 }, async () => {
    const flagKey = "remote-config-for-sdk"
    const payloads = { true: "{\"theme\": \"dark\", \"size\": 3}" }
    const insert = (key: string, is_remote_configuration: boolean) =>
      runtime.runPromise(FlagRepository.use((repository) =>
        repository.insert({
          ...newFlagColumns({ key, is_remote_configuration, filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads } }, null),
          project_id: project,
          creation_context: "feature_flags",
          created_by_id: null
        })).pipe(Effect.orDie))
    await insert(flagKey, true)
    await insert("not-remote-config-for-sdk", false)
    const client = new PostHog(token, { host: url, personalApiKey: key, featureFlagsPollingInterval: null, disableGeoip: true, flushAt: 1_000_000 })
    try {
      expect(await client.getRemoteConfigPayload(flagKey)).toEqual({ theme: "dark", size: 3 })
      expect(await client.getRemoteConfigPayload("not-remote-config-for-sdk")).toBeNull()
      expect(await client.getRemoteConfigPayload("no-such-flag")).toBeNull()
    } finally {
      await client.shutdown()
    }
  })
})
