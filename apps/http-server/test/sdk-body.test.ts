import { PayloadTooLarge, ValidationError } from "@hedgerow/core"
import { compressToBase64 } from "lz-string"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { decodeLz64 } from "../src/request/lz64.ts"
import { decodeSdkBody, MAX_DECODED_BYTES, SDK_BODY_SHAPE } from "../src/request/sdk-body.ts"
import { threadTimed } from "../../../packages/core/test/thread-slices.ts"
import { paced } from "../../../packages/core/test/machine-pace.ts"

const body = { token: "phc_x", distinct_id: "d-1", person_properties: { name: "Zoë 🐝" } }
const json = JSON.stringify(body)
/** posthog-js's base64: of the UTF-8 bytes of the JSON text. */
const base64 = Buffer.from(json).toString("base64")
const FORM = "application/x-www-form-urlencoded"
/** posthog-js's form: `data=` and the base64 text escaped as a URI component. */
const form = (data: string) => Buffer.from(`data=${encodeURIComponent(data)}`)
const bytes = (text: string) => Buffer.from(text)


describe("SDK bodies are decoded exactly once", () => {
  it("reads every encoding the SDKs send", () => {
    const cases: ReadonlyArray<readonly [string, Uint8Array, Parameters<typeof decodeSdkBody>[1]]> = [
      ["JSON (posthog-node, posthog-js with disable_compression)", bytes(json), { contentType: "application/json" }],
      ["gzip by Content-Encoding (posthog-node, posthog-js-lite)", gzipSync(json), { contentType: "application/json", contentEncoding: "gzip" }],
      ["gzip-js, the query parameter said", gzipSync(json), { compression: "gzip-js", contentType: "text/plain" }],
      ["gzip-js as posthog-js sends it: nothing said, text/plain", gzipSync(json), { contentType: "text/plain" }],
      ["posthog-js's /flags: ?compression=base64 and a form's data", form(base64), { compression: "base64", contentType: FORM }],
      ["posthog-js's beacon: the same form", form(base64), { compression: "base64", contentType: `${FORM};charset=UTF-8` }],
      ["a form's data, nothing said", form(base64), { contentType: FORM }],
      ["a form's data whose + came as a space", Buffer.from(`data=${base64.replace(/\+/g, " ")}`), { contentType: FORM }],
      ["a form whose data is JSON", form(json), { contentType: FORM }],
      ["base64 raw, said", bytes(base64), { compression: "base64" }],
      ["base64 raw, b64 said", bytes(base64), { compression: "b64" }],
      ["base64 raw, nothing said", bytes(base64), {}],
      ["lz64 in a form (older posthog-js)", form(compressToBase64(json)), { compression: "lz64", contentType: FORM }],
      ["lz-string raw", bytes(compressToBase64(json)), { compression: "lz-string" }],
      ["lz64 said in the form", Buffer.from(`compression=lz64&data=${encodeURIComponent(compressToBase64(json))}`), { contentType: FORM }],
      ["lz64 in a form whose + came as a space", Buffer.from(`compression=lz64&data=${compressToBase64(json).replace(/\+/g, " ")}`), { contentType: FORM }],
      ["a form's data given twice: the last, as PostHog reads it", Buffer.from(`data=e30%3D&data=${encodeURIComponent(base64)}`), { contentType: FORM }]
    ]
    for (const [name, sent, encoding] of cases) expect([name, decodeSdkBody(sent, encoding)]).toEqual([name, body])
  })

  it("reads a GET's data parameter as a form's", () => {
    const query = new URLSearchParams({ data: base64, ver: "1.0" })
    expect(decodeSdkBody(new Uint8Array(), {}, query)).toEqual(body)
  })

  it("refuses what cannot be read, each with its reason", () => {
    const reason = (decoded: unknown) => (decoded as ValidationError).detail
    expect(reason(decodeSdkBody(bytes("{\"token\":"), {}))).toBe("Malformed request data: the body is not valid JSON")
    expect(reason(decodeSdkBody(bytes("not gzip"), { compression: "gzip" }))).toBe("Malformed request data: the body is not valid gzip")
    expect(reason(decodeSdkBody(bytes("not lz64!"), { compression: "lz64" }))).toBe("Malformed request data: the body is not valid lz64")
    expect(reason(decodeSdkBody(bytes("ver=1"), { contentType: FORM }))).toBe("Malformed request data: the form has no data field")
    expect(reason(decodeSdkBody(bytes("  "), {}))).toBe("Malformed request data: the body is empty")
    // Base64 of base64 is decoded once, as PostHog does: the inner text is not JSON.
    expect(reason(decodeSdkBody(form(Buffer.from(base64).toString("base64")), { contentType: FORM }))).toBe(
      "Malformed request data: the body is not valid JSON"
    )
  })

  it("stops opening a bomb at the limit, in a few milliseconds", () => {
    // A distinct id of 9.5 MiB in a 10 KB gzip body: opened whole, it held the loop for a quarter second.
    const bomb = gzipSync(JSON.stringify({ token: "phc_x", distinct_id: "a".repeat(9.5 * 1024 * 1024) }))
    expect(bomb.byteLength).toBeLessThan(20_000)
    const [decoded, took] = threadTimed(() => decodeSdkBody(bomb, { contentEncoding: "gzip" }))
    expect(decoded).toBeInstanceOf(PayloadTooLarge)
    expect((decoded as PayloadTooLarge).detail).toBe("Decompressed request body is larger than the 1 MiB limit.")
    expect(took).toBeLessThan(paced(25))
    const lzBomb = compressToBase64("a".repeat(2 * 1024 * 1024))
    expect(lzBomb.length).toBeLessThan(10_000)
    const [lz, lzMs] = threadTimed(() => decodeSdkBody(bytes(lzBomb), { compression: "lz64" }))
    expect(lz).toBeInstanceOf(PayloadTooLarge)
    expect(lzMs).toBeLessThan(paced(25))
    // Just within the limit is read.
    const within = JSON.stringify({ ...body, pad: "x".repeat(MAX_DECODED_BYTES - json.length - 20) })
    expect(decodeSdkBody(gzipSync(within), {})).toEqual(JSON.parse(within))
  })

  it("refuses an object or a list wider than the bound before parsing it, and counts no comma inside a string", () => {
    const wide = (members: number) => JSON.stringify({ ...body, person_properties: Object.fromEntries(Array.from({ length: members }, (_, i) => [`p${i}`, i])) })
    const refused = "Malformed request data: an object or a list in the body holds more than 10000 members"
    // About the widest object the 1 MiB a body may open to holds.
    const widest = wide(70_000)
    expect(widest.length).toBeLessThan(MAX_DECODED_BYTES)
    const packed = gzipSync(widest)
    const [opened, openedMs] = threadTimed(() => decodeSdkBody(packed, { compression: "gzip-js" }))
    expect((opened as ValidationError).detail).toBe(refused)
    expect(openedMs).toBeLessThan(paced(25))
    expect((decodeSdkBody(bytes(JSON.stringify({ batch: Array.from({ length: SDK_BODY_SHAPE.members + 1 }, () => 1) })), {}) as ValidationError).detail).toBe(refused)
    expect(decodeSdkBody(bytes(wide(SDK_BODY_SHAPE.members - 3)), {})).toEqual(JSON.parse(wide(SDK_BODY_SHAPE.members - 3)))
    const commas = JSON.stringify({ ...body, note: ",".repeat(50_000), quoted: "\",{[".repeat(10_000) })
    expect(decodeSdkBody(bytes(commas), {})).toEqual(JSON.parse(commas))
  })

  it("refuses a form of more fields than an object may have members before reading any field", () => {
    const form = { contentType: "application/x-www-form-urlencoded" }
    const [refused, ms] = threadTimed(() => decodeSdkBody(bytes("a&".repeat(512 * 1024)), form))
    expect((refused as ValidationError).detail).toBe("Malformed request data: an object or a list in the body holds more than 10000 members")
    expect(ms).toBeLessThan(paced(25))
    const fields = `${"a=1&".repeat(SDK_BODY_SHAPE.members - 2)}data=${encodeURIComponent(Buffer.from(json).toString("base64"))}`
    expect(decodeSdkBody(bytes(fields), form)).toEqual(JSON.parse(json))
  })

  it("refuses a body of too many objects and lists, or nested too deep, before parsing it, within a few milliseconds", () => {
    const detail = (text: string) => {
      const sent = gzipSync(text)
      const [result, millis] = threadTimed(() => decodeSdkBody(sent, { compression: "gzip-js" }))
      expect(millis).toBeLessThan(25)
      return (result as ValidationError).detail
    }
    // Each a mebibyte opened from a few kilobytes.
    const emptyObjects = `[${Array.from({ length: 5_000 }, () => `[${Array(60).fill("{}").join(",")}]`).join(",")}]`
    const nestedLists = `[${Array(47_000).fill("[[[[[[[[[[0]]]]]]]]]]").join(",")}]`
    const deep = "[".repeat(500_000) + "]".repeat(500_000)
    for (const text of [emptyObjects, nestedLists, deep]) expect(text.length).toBeLessThan(MAX_DECODED_BYTES)
    expect(detail(emptyObjects)).toBe("Malformed request data: the body holds more than 20000 objects and lists")
    expect(detail(nestedLists)).toBe("Malformed request data: the body holds more than 20000 objects and lists")
    expect(detail(deep)).toBe("Malformed request data: the body nests deeper than 128 levels")
    // At the bounds, read: 128 levels, and 20,000 objects in all.
    const deepest = `${"[".repeat(127)}{"token":"phc_x"}${"]".repeat(127)}`
    expect(decodeSdkBody(bytes(deepest), {})).toEqual(JSON.parse(deepest))
    const most = JSON.stringify({ batch: Array.from({ length: 9_999 }, () => ({ event: "e", properties: {} })) })
    expect(decodeSdkBody(bytes(most), {})).toEqual(JSON.parse(most))
  })

  it("decodes lz-string's base64 as lz-string writes it", () => {
    for (const text of ["", "a", "aaaaaaaaaaaaaaaaaaaaaaaa", json, "ü€𝄞".repeat(50), JSON.stringify([...Array(300).keys()])]) {
      expect(decodeLz64(compressToBase64(text), 1_000_000)).toEqual({ text })
    }
    expect(decodeLz64(compressToBase64("abcdef".repeat(100)), 100)).toBe("tooLarge")
    expect(decodeLz64("AAAA*", 100)).toBe("invalid")
  })
})
