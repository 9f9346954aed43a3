import { Effect } from "effect"
import { Agent, request } from "node:http"
import { flagsPath } from "./flag-scenarios.ts"

/** One write: where it goes and the bytes it carries. */
interface Write {
  readonly method: "POST" | "PATCH"
  readonly path: string
  /** Absent: no content-type header at all. */
  readonly contentType: string | undefined
  readonly body: string | Uint8Array
  /** Valid as built; the others are odd on purpose, though some turn out acceptable. */
  readonly valid: boolean
}

/** What the server made of the fuzzed writes. */
export interface FuzzFigures {
  readonly writes: number
  /** Writes built valid: creates of new keys and plain changes of existing flags. */
  readonly valid: number
  readonly statusCodes: Readonly<Record<string, number>>
  /** Writes that got no answer: a connection error, or 30 s of silence. */
  readonly errors: number
  /** The first few of those errors, to say what went wrong. */
  readonly errorSamples: ReadonlyArray<string>
}

/** Answers the server should never give, whatever it is sent. */
export const serverErrors = (figures: FuzzFigures) =>
  Object.entries(figures.statusCodes).reduce((sum, [code, count]) => Number(code) >= 500 ? sum + count : sum, 0)

const MIB = 1024 * 1024
const ANSWER_TIMEOUT_MS = 30_000

/** Mulberry32: the same writes in the same order on every run, so a failure can be replayed. */
const randomSource = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Values of every JSON type, and strings a validator or a database may trip on. */
const ODD_VALUES: ReadonlyArray<unknown> = [
  0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 2_147_483_648, true, false, null, "", " ", "0", "true", "null", "2147483648",
  [], [null], [1, "a", {}], {}, { "": "" }, { nested: { deeper: [[]] } },
  "a\u0000b", "\ud800", "💥".repeat(64), "<script>alert(1)</script>", "'; DROP TABLE posthog_featureflag; --", "x".repeat(10_000)
]

/** The writable fields of a flag, and fields the API only shows or does not know. */
const FIELDS = [
  "key", "name", "filters", "deleted", "active", "version", "ensure_experience_continuity", "rollback_conditions",
  "performed_rollback", "tags", "analytics_dashboards", "has_enriched_analytics", "creation_context",
  "is_remote_configuration", "has_encrypted_payloads", "evaluation_runtime", "_create_in_folder", "_should_create_usage_dashboard"
]
const UNKNOWN_FIELDS = ["id", "created_at", "created_by", "usage_dashboard", "status", "team_id", "surprise", "__proto__", "constructor", "prototype"]

const VALID_FILTERS: ReadonlyArray<unknown> = [
  { groups: [{ properties: [], rollout_percentage: 30 }] },
  { groups: [{ properties: [{ key: "email", value: "@example.com", operator: "icontains", type: "person" }], rollout_percentage: 100 }] },
  {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
  }
]

/** Conditions the API must refuse, or take as odd as they are. */
const BAD_FILTERS: ReadonlyArray<unknown> = [
  "all", [], null, 5, { groups: "all" }, { groups: [null] }, { groups: [{ rollout_percentage: 150 }] },
  { groups: [{ rollout_percentage: -1 }] }, { groups: [{ rollout_percentage: "50" }] }, { groups: [{ rollout_percentage: 1e308 }] },
  { groups: [{ properties: "email" }] }, { groups: [{ properties: [null] }] },
  { groups: [{ properties: [{ key: "email", operator: "nonsense", value: "x", type: "person" }] }] },
  { groups: [{ properties: [{ key: "email", operator: "regex", value: "(", type: "person" }] }] },
  { groups: [{ properties: [{ key: "created", operator: "is_date_after", value: "not a date", type: "person" }] }] },
  { groups: [{ properties: [{ key: "x", operator: "exact", value: [1, {}, null], type: "person" }] }] },
  { groups: [{ properties: [{ type: "cohort", key: "id", value: 2_147_483_648 }] }] },
  { groups: [{ properties: [{ type: "flag", key: "999999", value: true, operator: "flag_evaluates_to" }] }] },
  { groups: [{ variant: "nope", rollout_percentage: 10 }] },
  { multivariate: { variants: [{ key: "a", rollout_percentage: 60 }, { key: "b", rollout_percentage: 60 }] } },
  { multivariate: { variants: [{ key: "a", rollout_percentage: 100 }, { key: "a", rollout_percentage: 0 }] } },
  { multivariate: { variants: [] } }, { multivariate: "yes" },
  { payloads: { true: { nested: [1, 2] } } }, { payloads: { "no-such-variant": "x" } }, { payloads: [] },
  { aggregation_group_type_index: "x", groups: [] }, { super_groups: 5 }, { holdout_groups: [{}] }
]

/** Bodies that are not a JSON object, or not JSON, or not sent as JSON. */
const MALFORMED: ReadonlyArray<{ readonly body: string | Uint8Array; readonly contentType?: string | undefined }> = [
  { body: `{"key": "trunc` }, { body: `{"key": "a",}` }, { body: `{'key': 'a'}` }, { body: `{"key": NaN}` }, { body: `{"version": 1e999}` },
  { body: `null` }, { body: `[]` }, { body: `"key"` }, { body: `42` }, { body: `` }, { body: `{"key":"a","key":"b"}` },
  { body: Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]) }, { body: `\ufeff{"key": "bom"}` },
  { body: `key=a&name=b`, contentType: "application/x-www-form-urlencoded" }, { body: `{"key": "plain"}`, contentType: "text/plain" },
  { body: `{"key": "none"}`, contentType: undefined }, { body: `{"key": "charset"}`, contentType: "application/json; charset=latin1" },
  { body: `--x\r\nContent-Disposition: form-data; name="key"\r\n\r\na\r\n--x--`, contentType: "multipart/form-data; boundary=x" }
]

/** Flag ids that are not there, or not ids; each PATCHed under the project's path. */
const ODD_IDS = ["0", "-1", "2147483648", "99999999999999999999", "1.5", "abc", "%00", "..%2F..%2F", "1e3"]

/** Nesting `depth` levels deep, as JSON text: arrays or objects. */
const deepJson = (depth: number, objects: boolean) =>
  objects ? `${`{"a":`.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}${"]".repeat(depth)}`

/**
 * Writes to one project, built one at a time from a seeded random source: about a quarter valid creates
 * and changes, the rest wrong types, bad conditions, unknown fields, strings near the 1 MiB body limit
 * (some over it), deeply nested JSON, malformed bodies and ids that are not there.
 */
export const fuzzedWrites = (projectId: number, flagIds: ReadonlyArray<number>, seed = 1) => {
  const random = randomSource(seed)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
  const listPath = flagsPath(projectId)
  const flagPath = () => `${listPath}${pick(flagIds)}/`
  /** POSTs go to the list and PATCHes to a flag, but for one in ten the other way round (a 405). */
  const methodAndPath = (): Pick<Write, "method" | "path"> => {
    const method = random() < 0.5 ? "POST" : "PATCH"
    return { method, path: (method === "POST") === (random() < 0.9) ? listPath : flagPath() }
  }
  let serial = 0
  const json = (method: Write["method"], path: string, body: unknown, valid = false): Write =>
    ({ method, path, contentType: "application/json", body: JSON.stringify(body), valid })
  /** A create (new key) or a change of a seeded flag, with `fields` added. */
  const write = (fields: Record<string, unknown>, valid = false) =>
    random() < 0.5
      ? json("POST", listPath, { key: `fuzz-${seed}-${serial++}`, name: "Fuzzed", ...fields }, valid)
      : json("PATCH", flagPath(), fields, valid)

  const kinds: ReadonlyArray<readonly [weight: number, make: () => Write]> = [
    [13, () => json("POST", listPath, { key: `fuzz-${seed}-${serial++}`, name: "Fuzzed", filters: pick(VALID_FILTERS), tags: ["fuzz"] }, true)],
    [12, () => {
      const change = pick([{ name: `Fuzzed ${serial++}` }, { active: random() < 0.5 }, { filters: pick(VALID_FILTERS) }, { tags: ["fuzz", "b"] }])
      return json("PATCH", flagPath(), change, true)
    }],
    [18, () => write({ [pick(FIELDS)]: pick(ODD_VALUES) })],
    [16, () => write({ filters: pick(BAD_FILTERS) })],
    [8, () => write(Object.fromEntries([[pick(UNKNOWN_FIELDS), pick(ODD_VALUES)], [pick(UNKNOWN_FIELDS), { polluted: true }]]))],
    [3, () => {
      // Within a few KiB of the limit on either side; about one in five over it, which must be a 413.
      const length = MIB - 4096 + Math.floor(random() * 5120)
      const text = "hedgerow ".repeat(Math.ceil(length / 9)).slice(0, length)
      return write(pick<Record<string, unknown>>([
        { key: text }, { name: text }, { tags: [text] }, { _create_in_folder: text }, { rollback_conditions: { text } },
        { filters: { groups: [{ properties: [{ key: "email", value: text, operator: "exact", type: "person" }], rollout_percentage: 5 }] } }
      ]))
    }],
    [5, () => {
      const depth = pick([100, 101, 1_000, 10_000, 100_000])
      const deep = deepJson(depth, random() < 0.5)
      const field = pick(["filters", "rollback_conditions", "name", "tags"])
      const body = random() < 0.2 ? deep : `{"key":"fuzz-${seed}-${serial++}","${field}":${deep}}`
      return { ...methodAndPath(), contentType: "application/json", body, valid: false }
    }],
    [13, () => {
      const malformed = pick(MALFORMED)
      return { ...methodAndPath(), contentType: "application/json", ...malformed, valid: false }
    }],
    [5, () =>
      random() < 0.7
        ? json("PATCH", `${listPath}${pick(ODD_IDS)}/`, { name: "Nowhere" })
        : json("POST", `/api/projects/${pick(["0", "2147483648", "abc", String(projectId + 1000)])}/feature_flags/`, { key: "elsewhere" })]
  ]
  const total = kinds.reduce((sum, [weight]) => sum + weight, 0)
  return (): Write => {
    let ticket = random() * total
    for (const [weight, make] of kinds) {
      if (ticket < weight) return make()
      ticket -= weight
    }
    return kinds[0]![1]()
  }
}

/** One write's status, or why it got none. */
const send = (agent: Agent, baseUrl: string, authorization: Readonly<Record<string, string>>, write: Write) =>
  Effect.callback<number | Error>((resume) => {
    const headers: Record<string, string> = {
      ...authorization,
      "content-length": String(typeof write.body === "string" ? Buffer.byteLength(write.body) : write.body.byteLength)
    }
    if (write.contentType !== undefined) headers["content-type"] = write.contentType
    const outgoing = request(`${baseUrl}${write.path}`, { method: write.method, agent, headers }, (response) => {
      response.resume()
      response.on("end", () => resume(Effect.succeed(response.statusCode ?? 0)))
      response.on("error", (error) => resume(Effect.succeed(error)))
    })
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS / 1000} s`)))
    outgoing.on("error", (error) => resume(Effect.succeed(error)))
    outgoing.end(write.body)
    return Effect.sync(() => outgoing.destroy())
  })

/**
 * `writes` fuzzed writes over `connections` kept-alive connections, from this thread: the server is
 * another process, so nothing here competes with it for an event loop. Statuses are counted, not judged.
 */
export const sendFuzzedWrites = (options: {
  readonly baseUrl: string
  readonly authorization: Readonly<Record<string, string>>
  readonly projectId: number
  readonly flagIds: ReadonlyArray<number>
  readonly writes: number
  readonly connections: number
}) =>
  Effect.gen(function*() {
    const next = fuzzedWrites(options.projectId, options.flagIds)
    const statusCodes: Record<string, number> = {}
    const errorSamples: Array<string> = []
    let errors = 0
    let valid = 0
    const agent = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ keepAlive: true, maxSockets: options.connections })),
      (agent) => Effect.sync(() => agent.destroy())
    )
    // Built as each is sent, so that no more than `connections` bodies of up to 1 MiB are held at once.
    yield* Effect.forEach(
      Array.from({ length: options.writes }),
      () =>
        Effect.suspend(() => {
          const write = next()
          if (write.valid) valid++
          return send(agent, options.baseUrl, options.authorization, write).pipe(Effect.map((outcome) => {
            if (typeof outcome === "number") {
              statusCodes[outcome] = (statusCodes[outcome] ?? 0) + 1
            } else {
              errors++
              if (errorSamples.length < 3) errorSamples.push(`${write.method} ${write.path}: ${outcome.message}`)
            }
          }))
        }),
      { concurrency: options.connections, discard: true }
    )
    return { writes: options.writes, valid, statusCodes, errors, errorSamples } satisfies FuzzFigures
  }).pipe(Effect.scoped)
