import { Bootstrap, type ProjectId } from "@hedgerow/core"
import { CohortRepository } from "@hedgerow/core/ports"
import { Effect, ManagedRuntime } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { threadMillis, threadSlices } from "../../../packages/core/test/thread-slices.ts"
import { paced } from "../../../packages/core/test/machine-pace.ts"

/**
 * Cohorts shaped to cost as much as they can, and requests about them: each must be answered (or
 * refused) in a few milliseconds and never with a 500.
 */

let runtime: ManagedRuntime.ManagedRuntime<any, any>
let base = ""
let key = ""
let token = ""
let project = 0

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}/api/projects/${project}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() }
}

const group = (type: "AND" | "OR", ...values: ReadonlyArray<unknown>) => ({ type, values })
const named = (...ids: ReadonlyArray<number>) => ({ properties: group("AND", group("AND", ...ids.map((id) => ({ type: "cohort", key: "id", value: id })))) })

/** Cohorts written straight into the store, past the API's rules, as data stored before them would be. */
const stored = (filters: unknown) =>
  runtime.runPromise(Effect.gen(function*() {
    const cohorts = yield* CohortRepository
    const cohort = yield* cohorts.insert({
      project_id: project as ProjectId,
      name: "stored",
      description: "",
      groups: [],
      filters,
      is_static: false,
      is_calculating: false,
      count: null,
      created_by_id: null
    })
    return cohort.id as number
  }))

/** `levels` cohorts, each naming the one below twice, over `bottom`: the top's id. */
const diamond = async (bottom: number, levels: number) => {
  let top = bottom
  for (let level = 0; level < levels; level++) top = await stored(named(top, top))
  return top
}

const flagOn = async (cohort: number) => {
  const flagKey = `on-cohort-${cohort}`
  const created = await api("POST", "/feature_flags/", {
    key: flagKey,
    filters: { groups: [{ properties: [{ type: "cohort", key: "id", value: cohort }], rollout_percentage: 100 }] }
  })
  expect(created.status).toBe(201)
  return flagKey
}

/** A /flags answer and the thread's CPU time it took, the server's and the client's both. */
const flags = async (body: unknown) => {
  const started = threadMillis()
  const response = await fetch(`${base}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, ...(body as object) }) })
  return { status: response.status, body: await response.json(), took: threadMillis() - started }
}

beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  base = await runtime.runPromise(HedgerowServer.baseUrl)
  const first = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
  key = first.personal_api_key
  project = first.project_id
  token = (await api("GET", "/")).body.api_token
}, 60_000)

afterAll(async () => {
  await runtime.dispose()
})

describe("cohorts shaped to cost", () => {
  it("a diamond of 20 levels over a chain past the depth bound, or over a loop, is evaluated in milliseconds", async () => {
    let chain = await stored({ properties: group("AND", group("AND", { type: "person", key: "email", operator: "exact", value: "x", negation: false })) })
    for (let i = 0; i < 55; i++) chain = await stored(named(chain))
    const overChain = await flagOn(await diamond(chain, 20))
    const first = await stored(named())
    const second = await stored(named(first))
    expect(await api("PATCH", `/cohorts/${first}/`, { filters: named(second) })).toMatchObject({ status: 400 })
    // The loop is drawn past the API, which refuses it.
    await runtime.runPromise(Effect.gen(function*() {
      const cohorts = yield* CohortRepository
      yield* cohorts.update(first as never, { name: "stored", description: "", groups: [], filters: named(second), is_static: false, deleted: false })
    }))
    const overLoop = await flagOn(await diamond(first, 20))
    // The first request prepares the project; the second is evaluation alone.
    for (let round = 0; round < 2; round++) {
      const answer = await flags({ distinct_id: "u", person_properties: { email: "x" } })
      expect(answer.status).toBe(200)
      expect([answer.body.flags[overChain].enabled, answer.body.flags[overLoop].enabled]).toEqual([false, false])
      if (round === 1) expect(answer.took).toBeLessThan(paced(50))
    }
    const started = threadMillis()
    const reasons = await api("GET", "/feature_flags/evaluation_reasons/?distinct_id=u")
    expect(threadMillis() - started).toBeLessThan(paced(50))
    expect([reasons.body[overChain].value, reasons.body[overLoop].value]).toEqual([false, false])
  }, 60_000)

  /** A static cohort's form carrying `csv`, POSTed; the answer, and the most CPU the event loop spent in one turn meanwhile. */
  const upload = async (csv: Uint8Array | string) => {
    const boundary = "hostile-boundary"
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="is_static"\r\n\r\ntrue\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="members.csv"\r\n\r\n`),
      typeof csv === "string" ? Buffer.from(csv) : csv,
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
    const { result, slices } = await threadSlices(async () => {
      const response = await fetch(`${base}/api/projects/${project}/cohorts/`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body
      })
      return { status: response.status, body: await response.json() }
    })
    return { ...result, longest: Math.max(...slices) }
  }

  const EIGHT_MIB = 8 * 1024 * 1024
  const csvRefusal = (detail: string) => ({ type: "validation_error", code: "invalid", detail, attr: "csv" })

  it("CSVs of 8 MiB of blank lines, of one 8 MiB line, of 1,000 long headings: answered without holding the loop, refusals short", async () => {
    const blank = await upload(`distinct_id,name\n${"\n".repeat(EIGHT_MIB - 1000)}anna,Anna\n`)
    expect([blank.status, blank.body.count]).toEqual([201, 1])
    const line = await upload("a,".repeat(EIGHT_MIB / 2 - 1000))
    expect([line.status, line.body]).toEqual([400, csvRefusal("A CSV row may have at most 1,048,576 characters; row 1 has more.")])
    const headings = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(1000, "h"))
    const unnamed = await upload(`${headings.join(",")}\nanna\n`)
    expect(unnamed.status).toBe(400)
    expect(JSON.stringify(unnamed.body).length).toBeLessThan(1500)
    expect(unnamed.body.detail).toMatch(/, and 980 more$/)
    console.log(`loop held at most: blank lines ${blank.longest.toFixed(1)} ms, one line ${line.longest.toFixed(1)} ms, headings ${unnamed.longest.toFixed(1)} ms`)
    for (const each of [blank, line, unnamed]) expect(each.longest).toBeLessThan(paced(150))
  }, 60_000)

  it("uploads sent at once are read two at a time: what waits holds only its file, and what is done is let go", async () => {
    const ids = Array.from({ length: 99_990 }, (_, i) => `user-${i}-${"x".repeat(60)}`).join("\n")
    const csv = Buffer.from(`distinct_id\n${ids}\n${"z".repeat(201)}\n`)
    // What the uploads hold, not what they have let go of: the heap in use right after a collection.
    setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as () => void
    const live = () => {
      gc()
      return process.memoryUsage().heapUsed
    }
    const before = live()
    let peak = before
    // Each reading collects the whole heap, which takes long on a slow machine: the next waits at least
    // four times as long as it took, so that the readings leave the uploads most of the event loop.
    let sampling = true
    const sample = () => {
      if (!sampling) return
      const started = performance.now()
      peak = Math.max(peak, live())
      setTimeout(sample, Math.max(100, 4 * (performance.now() - started)))
    }
    setTimeout(sample, 100)
    const answers = await Promise.all(Array.from({ length: 12 }, () => upload(csv)))
    sampling = false
    const after = live()
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(400))
    expect(answers[0]!.body).toEqual(csvRefusal("A distinct ID may have at most 200 characters; row 99992 of the CSV has more."))
    const mib = (bytes: number) => bytes / 1024 / 1024
    console.log(`12 uploads of ${mib(csv.length).toFixed(1)} MiB at once: live heap grew by at most ${mib(peak - before).toFixed(0)} MiB, ${mib(after - before).toFixed(0)} MiB after`)
    expect(mib(peak - before)).toBeLessThan(60)
    expect(mib(after - before)).toBeLessThan(10)
  }, 120_000)
})
