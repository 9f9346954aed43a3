import { Bootstrap, FlagView, PageEnvelopeOf } from "@hedgerow/core"
import { ManagedRuntime, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/**
 * Flags are made into JSON by the server itself, not by HttpApi's encoding, and their texts are kept:
 * each must be exactly what that encoding prints, field for field and in the same order, for flags of
 * every shape, and a kept text must never outlive what it says.
 */
describe("a flag's JSON, and a page of them", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let headers: Record<string, string> = {}
  let project = 0
  let token = ""

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    headers = { authorization: `Bearer ${boot.personal_api_key}`, "content-type": "application/json" }
    project = boot.project_id
    token = (await (await fetch(`${url}/api/projects/${project}/`, { headers })).json()).api_token
  })
  afterAll(() => runtime.dispose())

  const flags = `/api/projects/${"{project}"}/feature_flags/`
  const call = async (method: string, path: string, status: number, body?: object) => {
    const response = await fetch(`${url}${path.replace("{project}", String(project))}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    expect(response.status, text).toBe(status)
    expect(response.headers.get("content-type")).toBe("application/json")
    return text
  }
  /** The schema's own printing of what `text` says: decoding drops any field it does not know. */
  const encodingOf = <S extends Schema.Codec<any, any>>(schema: S, text: string) =>
    JSON.stringify(Schema.encodeSync(schema as any)(Schema.decodeUnknownSync(schema as any)(JSON.parse(text))))
  const page = PageEnvelopeOf(FlagView)

  it("is the schema's encoding, byte for byte, from a create, a read, a change and a list", async () => {
    const shapes = [
      { key: "plain" },
      { key: "inactive", active: false, tags: ["b", "a"], name: "Off \"for now\" é" },
      {
        key: "variants",
        ensure_experience_continuity: true,
        filters: {
          groups: [
            { properties: [{ key: "email", value: ["a@x.io", "b@x.io"], operator: "exact", type: "person" }], rollout_percentage: 30, variant: "test" },
            { properties: [], rollout_percentage: null }
          ],
          multivariate: { variants: [{ key: "control", rollout_percentage: 40 }, { key: "test", name: "Test", rollout_percentage: 60 }] },
          payloads: { control: "{\"a\": [1, 2]}", test: "\"text\"" }
        }
      },
      { key: "group-flag", evaluation_runtime: "server", filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 5 }] } },
      { key: "remote-config", is_remote_configuration: true, filters: { groups: [{ properties: [] }], payloads: { true: "{\"on\": true}" } } }
    ]
    const ids: Array<number> = []
    for (const shape of shapes) {
      const created = await call("POST", flags, 201, shape)
      expect(created).toBe(encodingOf(FlagView, created))
      ids.push(JSON.parse(created).id)
    }
    const read = await call("GET", `${flags}${ids[2]}/`, 200)
    expect(read).toBe(encodingOf(FlagView, read))
    const changed = await call("PATCH", `${flags}${ids[2]}/`, 200, { name: "Renamed" })
    expect(changed).toBe(encodingOf(FlagView, changed))
    // A page in the middle, with links both ways.
    const middle = await call("GET", `${flags}?limit=3&offset=1`, 200)
    expect(JSON.parse(middle).results).toHaveLength(3)
    expect(middle).toBe(encodingOf(page, middle))
  })

  it("is sent with the length of its bytes, not of its characters, however far from ASCII", async () => {
    const name = "Ünïcödé 漢字 \u{1F600} \"quoted\""
    const payload = JSON.stringify({ greeting: "こんにちは \u{1F44B}" })
    const sent = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${url}${path.replace("{project}", String(project))}`, { headers, ...init })
      const bytes = Buffer.from(await response.arrayBuffer())
      expect(response.status).toBe(200)
      expect(Number(response.headers.get("content-length"))).toBe(bytes.length)
      return JSON.parse(bytes.toString("utf8"))
    }
    const created = JSON.parse(await call("POST", flags, 201, {
      key: "far-from-ascii",
      name,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: payload } }
    }))
    // Twice each: the second is written from the bytes kept with the answer.
    for (let i = 0; i < 2; i++) {
      expect((await sent(`${flags}${created.id}/`)).name).toBe(name)
      expect((await sent(`${flags}?search=far-from-ascii`)).results.map((flag: { name: string }) => flag.name)).toEqual([name])
      const evaluated = await sent("/flags/?v=2", { method: "POST", body: JSON.stringify({ token, distinct_id: "ann", flag_keys: ["far-from-ascii"] }) })
      expect(evaluated.flags["far-from-ascii"].metadata.payload).toBe(payload)
    }
  })

  it("read again is the same text until the flag or what the caller sees of it changes", async () => {
    const id = JSON.parse(await call("POST", flags, 201, { key: "kept", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })).id
    const first = await call("GET", `${flags}${id}/`, 200)
    expect(await call("GET", `${flags}${id}/`, 200)).toBe(first)
    expect(JSON.parse(first).last_called_at).toBeNull()

    // Evaluated: last_called_at is new, in the flag and in the list.
    const evaluated = await fetch(`${url}/flags/?v=2`, { method: "POST", headers, body: JSON.stringify({ token, distinct_id: "ann" }) })
    expect(evaluated.status).toBe(200)
    const called = await call("GET", `${flags}${id}/`, 200)
    expect(JSON.parse(called).last_called_at).not.toBeNull()
    expect(called).toBe(encodingOf(FlagView, called))
    const listed = JSON.parse(await call("GET", `${flags}?search=kept`, 200)).results
    expect(listed.map((flag: { id: number; last_called_at: string | null }) => [flag.id, flag.last_called_at])).toEqual([[id, JSON.parse(called).last_called_at]])

    // Changed: the new version, everywhere.
    await call("PATCH", `${flags}${id}/`, 200, { active: false })
    const off = JSON.parse(await call("GET", `${flags}${id}/`, 200))
    expect([off.active, off.version, off.status]).toEqual([false, 2, "INACTIVE"])
    expect(JSON.parse(await call("GET", `${flags}?search=kept`, 200)).results[0].active).toBe(false)
  })
})
