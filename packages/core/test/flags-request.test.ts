import { assert, describe, it } from "@effect/vitest"
import { flagsFormat } from "../src/flag-evaluation/answers.ts"
import { type FlagsRequest, readFlagsRequest } from "../src/flag-evaluation/request.ts"
import { MAX_FLAG_KEYS, MAX_GROUPS, MAX_IDENTIFIER, MAX_PROPERTIES, MAX_VALUE_SIZE } from "../src/flag-evaluation/request-bounds.ts"
import { requestRuntime, runsIn } from "../src/flag-evaluation/runtime.ts"
import { ValidationError } from "../src/shared/errors.ts"

const read = (body: unknown): FlagsRequest => {
  const request = readFlagsRequest(body)
  if (request instanceof ValidationError) throw new Error(request.detail)
  return request
}

describe("a /flags body", () => {
  it("reads each field under its name or its alias, null as absent", () => {
    const request = read({
      api_key: "phc_x",
      $distinct_id: 42,
      $properties: { plan: "pro" },
      $groups: { company: "acme" },
      $group_properties: { company: { size: 5 } },
      flag_keys_to_evaluate: ["a"],
      $anon_distinct_id: "anon",
      $device_id: "device",
      evaluation_runtime: "SERVER",
      disable_flags: null
    })
    assert.deepStrictEqual(request, {
      token: "phc_x",
      distinct_id: "42",
      groups: { company: "acme" },
      person_properties: { plan: "pro" },
      group_properties: { company: { size: 5 } },
      flag_keys: ["a"],
      anon_distinct_id: "anon",
      device_id: "device",
      evaluation_runtime: "server",
      disable_flags: false
    })
    assert.strictEqual(read({ token: "t", $token: "u" }).token, "t")
    assert.strictEqual(read({ token: null, $token: "u" }).token, "u")
    assert.strictEqual(read({ evaluation_runtime: "edge" }).evaluation_runtime, "all")
    assert.strictEqual(read({}).distinct_id, undefined)
    assert.strictEqual(read({ distinct_id: "" }).distinct_id, "")
  })

  it("keeps at most 200 characters of a distinct id, counted as code points", () => {
    assert.strictEqual(read({ distinct_id: "a".repeat(250) }).distinct_id, "a".repeat(200))
    assert.strictEqual(read({ distinct_id: "😀".repeat(201) }).distinct_id, "😀".repeat(200))
  })

  it("cannot be read with a field of another type, and says which", () => {
    const reason = (body: unknown) => {
      const request = readFlagsRequest(body)
      return request instanceof ValidationError ? [request.code, request.detail, request.attr] : undefined
    }
    assert.deepStrictEqual(reason([]), ["malformed_data", "Malformed request data: the body must be a JSON object", null])
    assert.deepStrictEqual(reason({ distinct_id: [1] }), ["malformed_data", "Malformed request data: distinct_id must be a string or a number", null])
    let deep: unknown = "x"
    for (let i = 0; i < 200_000; i++) deep = [deep]
    assert.deepStrictEqual(reason({ person_properties: { email: deep } }), ["malformed_data", "Malformed request data: the body nests deeper than 128 levels", null])
    let fine: unknown = "x"
    for (let i = 0; i < 126; i++) fine = [fine]
    assert.strictEqual(reason({ person_properties: { email: fine } }), undefined)
    assert.deepStrictEqual(reason({ $group_properties: { company: null } }), [
      "malformed_data",
      "Malformed request data: the group_properties of company must be an object",
      null
    ])
  })

  it("is refused past the bounds on what evaluation reads, each named, and read up to them", () => {
    const reason = (body: object) => {
      const request = readFlagsRequest({ token: "t", distinct_id: "d", ...body })
      return request instanceof ValidationError ? [request.code, request.detail, request.attr] : undefined
    }
    const malformed = (detail: string) => ["malformed_data", `Malformed request data: ${detail}`, null]
    const properties = (count: number, value: unknown = 1) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, value]))
    assert.strictEqual(reason({ person_properties: properties(MAX_PROPERTIES) }), undefined)
    assert.deepStrictEqual(reason({ person_properties: properties(MAX_PROPERTIES + 1) }), malformed("the person and group properties number more than 1000"))
    assert.deepStrictEqual(
      reason({ person_properties: properties(600), group_properties: { company: properties(300), team: properties(101) } }),
      malformed("the person and group properties number more than 1000")
    )
    assert.deepStrictEqual(reason({ $properties: properties(200_000) }), malformed("the person and group properties number more than 1000"))
    assert.deepStrictEqual(reason({ groups: properties(MAX_GROUPS + 1, "g") }), malformed("groups holds more than 100 groups"))
    assert.deepStrictEqual(reason({ group_properties: properties(MAX_GROUPS + 1, {}) }), malformed("group_properties holds more than 100 groups"))
    assert.deepStrictEqual(
      reason({ flag_keys_to_evaluate: Array.from({ length: MAX_FLAG_KEYS + 1 }, (_, i) => `f${i}`) }),
      malformed("the flag keys number more than 10000")
    )
    assert.strictEqual(reason({ person_properties: { email: "e".repeat(MAX_VALUE_SIZE) } }), undefined)
    assert.deepStrictEqual(
      reason({ person_properties: { email: "e".repeat(MAX_VALUE_SIZE + 1) } }),
      malformed("the value of email in person_properties holds more than 10000 characters")
    )
    assert.deepStrictEqual(
      reason({ group_properties: { company: { tags: Array.from({ length: MAX_VALUE_SIZE }, () => "t") } } }),
      malformed("the value of tags in group_properties company holds more than 10000 characters")
    )
    assert.deepStrictEqual(
      reason({ person_properties: properties(11, "v".repeat(MAX_VALUE_SIZE)) }),
      malformed("the person and group properties hold more than 100000 characters")
    )
    assert.strictEqual(reason({ person_properties: properties(10, "v".repeat(MAX_VALUE_SIZE)) }), undefined)
    assert.deepStrictEqual(reason({ $device_id: "d".repeat(MAX_IDENTIFIER + 1) }), malformed("$device_id is longer than 400 characters"))
    assert.deepStrictEqual(reason({ $anon_distinct_id: "a".repeat(MAX_IDENTIFIER + 1) }), malformed("$anon_distinct_id is longer than 400 characters"))
    assert.deepStrictEqual(reason({ groups: { company: "c".repeat(MAX_IDENTIFIER + 1) } }), malformed("the key of group company is longer than 400 characters"))
    assert.strictEqual(reason({ groups: { company: "c".repeat(MAX_IDENTIFIER) }, $device_id: "d".repeat(MAX_IDENTIFIER) }), undefined)
    // A distinct id is cut, not refused, however long: only its first 200 code points are read.
    assert.strictEqual(read({ distinct_id: `${"😀".repeat(200)}${"x".repeat(5_000_000)}` }).distinct_id, "😀".repeat(200))
  })
})

describe("the answer's shape", () => {
  it("follows v on /flags (v2 from 2 up, else legacy) and on /decide (legacy at 3, v2 from 4, else decide's own)", () => {
    const flags = (v?: string) => flagsFormat("flags", v)
    const decide = (v?: string) => flagsFormat("decide", v)
    assert.deepStrictEqual([flags(), flags(""), flags("1"), flags("2"), flags("3"), flags("x"), flags("2.0"), flags("+2")], [
      "legacy", "legacy", "legacy", "v2", "v2", "legacy", "legacy", "v2"
    ])
    assert.deepStrictEqual([decide(), decide("1"), decide("2"), decide("3"), decide("4"), decide("9"), decide("0"), decide("x")], [
      "decideV1", "decideV1", "decideV2", "legacy", "v2", "v2", "decideV1", "decideV1"
    ])
  })
})

describe("the caller's runtime", () => {
  it("is the one named, else the User-Agent's, else a browser's headers make a client, else unknown", () => {
    assert.strictEqual(requestRuntime("all", { "user-agent": "Mozilla/5.0" }), "all")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "Mozilla/5.0 (Macintosh)" }), "client")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "posthog-node/5.70.0", "sec-fetch-mode": "cors" }), "server")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "curl/8.5.0" }), "server")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "posthog-ios/3.0.0" }), "client")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "my-app/1.0", origin: "https://a.example" }), "client")
    assert.strictEqual(requestRuntime(undefined, { "user-agent": "my-app/1.0" }), undefined)
  })

  it("decides which flags run: every flag for `all`, a runtime's own and `all` flags for it, `all` flags when unknown", () => {
    assert.deepStrictEqual((["all", "client", "server"] as const).map((flag) => runsIn(flag, "server")), [true, false, true])
    assert.deepStrictEqual((["all", "client", "server"] as const).map((flag) => runsIn(flag, "all")), [true, true, true])
    assert.deepStrictEqual((["all", "client", "server"] as const).map((flag) => runsIn(flag, undefined)), [true, false, false])
  })
})
