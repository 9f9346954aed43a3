import { Bootstrap, FlagsRequestBounds, type ProjectId, type UserId } from "@hedgerow/core"
import { FlagRepository, newFlagColumns } from "@hedgerow/core/ports"
import { Effect, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/**
 * Requests anyone with a project's public token can send, made to cost as much as they can: a pattern
 * that makes a backtracking engine run for ever against a long value, patterns whose linear-time search
 * is expensive on a value made for them, and a bomb of properties. While each is answered, a separate
 * process asks `/_health` again and again: the event loop must never keep it waiting 100 ms.
 */

const EMAIL = "^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$"

/**
 * `/_health` asked in a loop by another process, one request after the other, until told to stop:
 * answers the longest wait and the number of answers, none of which may fail.
 */
const probeHealth = (port: number) => {
  const script = `
    const http = require("node:http")
    let stop = false, longest = 0, answers = 0, failed = 0
    process.stdin.on("data", () => (stop = true))
    const ask = () => new Promise((resolve) => {
      const started = performance.now()
      http.get({ host: "127.0.0.1", port: ${port}, path: "/_health" }, (response) => {
        response.resume()
        response.on("end", () => {
          longest = Math.max(longest, performance.now() - started)
          answers++
          if (response.statusCode !== 200) failed++
          resolve()
        })
      }).on("error", () => (failed++, resolve()))
    })
    ;(async () => {
      process.stdout.write("ready\\n")
      while (!stop) {
        await ask()
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      process.stdout.write(JSON.stringify({ longest, answers, failed }) + "\\n")
      process.exit(0)
    })()
  `
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] })
  let output = ""
  const lines = new Promise<Array<string>>((resolve) => {
    child.stdout.on("data", (chunk) => {
      output += chunk
      if (output.split("\n").length > 2) resolve(output.split("\n"))
    })
  })
  const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))
  return {
    ready,
    stop: async (): Promise<{ readonly longest: number; readonly answers: number; readonly failed: number }> => {
      child.stdin.write("stop\n")
      return JSON.parse((await lines)[1]!)
    }
  }
}

describe("hostile requests to /flags and /decide", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let port = 0
  let token = ""
  let personalKey = ""
  let flagsPath = ""

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${personalKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() }
  }

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
    port = Number(new URL(await runtime.runPromise(HedgerowServer.baseUrl)).port)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    personalKey = boot.personal_api_key
    flagsPath = `/api/projects/${boot.project_id}/feature_flags/`
    token = (await api("GET", `/api/projects/${boot.project_id}/`)).body.api_token
    const regexFlag = (key: string, property: string, pattern: string) => ({
      key,
      filters: { groups: [{ properties: [{ key: property, type: "person", operator: "regex", value: pattern }], rollout_percentage: 100 }] }
    })
    // Both compile on RE2's engine, so the API takes them as any client would write them.
    for (const body of [regexFlag("nested-plus", "name", "^(a+)+$"), regexFlag("email-shape", "email", EMAIL)]) {
      expect((await api("POST", flagsPath, body)).status).toBe(201)
    }
    // Stored before patterns were checked: past the API, straight into the store.
    await runtime.runPromise(Effect.gen(function*() {
      const flags = yield* FlagRepository
      for (const [key, pattern] of [["lookahead", "^(?=(a+)+$)"], ["unclosed", "(unclosed"]] as const) {
        const columns = newFlagColumns(regexFlag(key, "name", pattern), boot.user.id as UserId)
        yield* flags.insert({ ...columns, project_id: boot.project_id as ProjectId, creation_context: "feature_flags", created_by_id: boot.user.id as UserId })
      }
    }))
    // Evaluation's first request prepares the project; the waits measured below are the hostile requests' own.
    await fetch(`http://127.0.0.1:${port}/flags/?v=2`, {
      method: "POST",
      body: JSON.stringify({ token, distinct_id: "warm", person_properties: { name: "aab", email: "warm@example.com" } })
    })
  })
  afterAll(() => runtime?.dispose())

  /** The request's answer, and the longest `/_health` took meanwhile. */
  const whileProbed = async (path: string, body: unknown) => {
    // Compressed, as posthog-node sends a body: the bomb fits in the 1 MiB a body may take.
    const sent = gzipSync(JSON.stringify(body))
    const probe = probeHealth(port)
    await probe.ready
    await new Promise((resolve) => setTimeout(resolve, 20))
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { "content-encoding": "gzip" }, body: sent })
    const answer = { status: response.status, body: await response.json() }
    await new Promise((resolve) => setTimeout(resolve, 20))
    const health = await probe.stop()
    expect(health.failed).toBe(0)
    expect(health.answers).toBeGreaterThan(0)
    console.log(`${path}: ${sent.length} bytes sent, /_health waited at most ${health.longest.toFixed(1)} ms over ${health.answers} answers`)
    return { answer, longest: health.longest }
  }

  /**
   * The request's answer, asked up to three times while probed; the shortest of the longest waits. A
   * request that holds the loop holds it every time; a machine busy with other work (a test suite run
   * beside this one) slows a probe now and then, which a second try tells apart.
   */
  const leastHeld = async (path: string, body: unknown) => {
    const waits: Array<number> = []
    let answer: { readonly status: number; readonly body: any } | undefined
    for (let attempt = 0; attempt < 3 && (waits.length === 0 || Math.min(...waits) >= 100); attempt++) {
      const probed = await whileProbed(path, body)
      answer = probed.answer
      waits.push(probed.longest)
    }
    return { answer: answer!, longest: Math.min(...waits) }
  }

  const longValues = {
    name: `${"a".repeat(FlagsRequestBounds.MAX_VALUE_SIZE - 1)}b`,
    email: `${"a".repeat(FlagsRequestBounds.MAX_VALUE_SIZE - 100)}@${"b.".repeat(40)}`
  }

  it("evaluates catastrophic patterns against long values in linear time, /_health answering meanwhile", async () => {
    for (const path of ["/flags/?v=2", "/decide/?v=3"]) {
      const { answer, longest } = await leastHeld(path, { token, distinct_id: "attacker", person_properties: longValues })
      expect(answer.status, path).toBe(200)
      const values = path.startsWith("/flags")
        ? Object.fromEntries(Object.entries(answer.body.flags).map(([key, flag]) => [key, (flag as { enabled: boolean }).enabled]))
        : answer.body.featureFlags
      // No pattern matches; the ones that do not compile on RE2 match nothing and fail no flag.
      expect(values, path).toEqual({ "nested-plus": false, "email-shape": false, lookahead: false, unclosed: false })
      expect(answer.body.errorsWhileComputingFlags, path).toBe(false)
      expect(longest, path).toBeLessThan(100)
    }
  })

  it("still answers the patterns as written on ordinary values", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/flags/?v=2`, {
      method: "POST",
      body: JSON.stringify({ token, distinct_id: "ann", person_properties: { name: "aaaa", email: "ann.lee@mail.example.com" } })
    })
    const { flags } = await response.json()
    expect([flags["nested-plus"].enabled, flags["email-shape"].enabled, flags.lookahead.enabled, flags.unclosed.enabled]).toEqual([true, true, false, false])
  })

  it("refuses a bomb of properties after one look at it, /_health answering meanwhile", async () => {
    const refusal = (detail: string) => ({ status: 400, body: { type: "validation_error", code: "malformed_data", detail, attr: null } })
    const bomb = (properties: number) => Object.fromEntries(Array.from({ length: properties }, (_, i) => [`p${i}`, i]))
    // Five times evaluation's bound: refused once counted. Sixty thousand, near the widest a body's 1 MiB
    // holds: refused by the transport before it is parsed, which would itself take the loop for tens of
    // milliseconds.
    const cases = [
      [bomb(5_000), refusal("Malformed request data: the person and group properties number more than 1000")],
      [bomb(60_000), refusal("Malformed request data: an object or a list in the body holds more than 10000 members")]
    ] as const
    for (const path of ["/flags/?v=2", "/decide/?v=3"]) {
      for (const [properties, refused] of cases) {
        const { answer, longest } = await leastHeld(path, { token, distinct_id: "attacker", person_properties: properties })
        expect(answer, path).toEqual(refused)
        expect(longest, path).toBeLessThan(100)
      }
    }
  })

  it("fails a flag whose linear-time regex work is past an evaluation's budget, /_health answering meanwhile", async () => {
    // Ten conditions whose automaton needs a state for each of the last 200-odd characters: accepted at
    // write, and expensive on a value of random `a`s and `b`s (the line feed keeps `$` from matching).
    const conditions = Array.from({ length: 10 }, (_, i) => ({ key: "email", type: "person", operator: "not_regex", value: `a.{${200 + i}}$` }))
    const created = await api("POST", flagsPath, { key: "far-from-the-end", filters: { groups: [{ properties: conditions, rollout_percentage: 100 }] } })
    expect(created.status).toBe(201)
    let seed = 27
    const letters = Array.from({ length: FlagsRequestBounds.MAX_VALUE_SIZE - 1 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
      return (seed >> 16) & 1 ? "a" : "b"
    })
    const email = `${letters.join("")}\n`
    for (const path of ["/flags/?v=2", "/decide/?v=3"]) {
      const { answer, longest } = await leastHeld(path, { token, distinct_id: "attacker", person_properties: { email } })
      expect(answer.status, path).toBe(200)
      const keys = Object.keys(path.startsWith("/flags") ? answer.body.flags : answer.body.featureFlags)
      expect(keys, path).not.toContain("far-from-the-end")
      expect(answer.body.errorsWhileComputingFlags, path).toBe(true)
      expect(longest, path).toBeLessThan(100)
    }
    // On an ordinary address the flag is answered.
    const response = await fetch(`http://127.0.0.1:${port}/flags/?v=2`, {
      method: "POST",
      body: JSON.stringify({ token, distinct_id: "ann", person_properties: { email: "ann.lee@mail.example.com" } })
    })
    const { flags, errorsWhileComputingFlags } = await response.json()
    expect([flags["far-from-the-end"].enabled, errorsWhileComputingFlags]).toEqual([true, false])
  })

  it("refuses a value past its bound, and a token longer than any names no project", async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}/flags/?v=2`, { method: "POST", body: JSON.stringify(body) })
      return { status: response.status, body: await response.json() }
    }
    expect(await post({ token, distinct_id: "x", person_properties: { name: "a".repeat(FlagsRequestBounds.MAX_VALUE_SIZE + 1) } })).toEqual({
      status: 400,
      body: {
        type: "validation_error",
        code: "malformed_data",
        detail: "Malformed request data: the value of name in person_properties holds more than 10000 characters",
        attr: null
      }
    })
    const unknown = await post({ token: "phc_unknown", distinct_id: "x" })
    expect(unknown.status).toBe(401)
    expect(await post({ token: `phc_${"x".repeat(500_000)}`, distinct_id: "x" })).toEqual(unknown)
  })
})
