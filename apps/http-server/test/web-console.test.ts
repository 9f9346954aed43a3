import { ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { acceptsGzip } from "../src/web-console/routes.ts"

// A console build of our own making (apps/web's real one is served and driven in a browser by its suite).
const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-console-"))
const PAGE = `<!doctype html><html><head><script type="module" src="/assets/app-1a2b.js"></script></head><body></body></html>`
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))})`
mkdirSync(path.join(dir, "assets"))
writeFileSync(path.join(dir, "index.html"), PAGE)
writeFileSync(path.join(dir, "assets", "app-1a2b.js"), SCRIPT)
writeFileSync(path.join(dir, "assets", "app-1a2b.js.gz"), gzipSync(SCRIPT))
writeFileSync(path.join(dir, "assets", "logo-9f8e.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]))

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

const written: Array<string> = []
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let url = ""

beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({
    port: 0,
    host: "127.0.0.1",
    store: {},
    webConsoleDir: dir,
    log: { level: "info", format: "json", sink: (text) => void written.push(text) }
  }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} })))))
  url = await runtime.runPromise(HedgerowServer.baseUrl)
})
afterAll(async () => {
  await runtime.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** The request log's entries so far, once the writer has flushed them. */
const logged = async () => {
  await new Promise((resolve) => setImmediate(resolve))
  return written.join("").split("\n").filter((text) => text !== "").map((text) => JSON.parse(text))
}

describe("the web console beside the API", () => {
  it("answers / with the page, which the browser asks again every time (304 while it is unchanged), framed by no other site", async () => {
    const page = await fetch(`${url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(page.headers.get("cache-control")).toBe("no-cache")
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(page.headers.get("x-content-type-options")).toBe("nosniff")
    expect(await page.text()).toBe(PAGE)
    const etag = page.headers.get("etag")!
    expect(etag).toMatch(/^"[\w-]+"$/)

    const again = await fetch(`${url}/`, { headers: { "if-none-match": `W/${etag}` } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe("")
    expect((await fetch(`${url}/`, { headers: { "if-none-match": '"other"' } })).status).toBe(200)
  })

  it("serves the hashed assets for a year, gzipped to a browser that accepts it and as they are to one that does not", async () => {
    const zipped = await fetch(`${url}/assets/app-1a2b.js`, { headers: { "accept-encoding": "gzip, br" } })
    expect(zipped.status).toBe(200)
    expect(zipped.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(zipped.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(zipped.headers.get("content-encoding")).toBe("gzip")
    expect(zipped.headers.get("vary")).toBe("accept-encoding")
    expect(await zipped.text()).toBe(SCRIPT)

    // fetch always asks for gzip; a raw request that does not is sent the file itself.
    const plain = await rawGet("/assets/app-1a2b.js", { "accept-encoding": "identity" })
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.body.toString()).toBe(SCRIPT)
    const refused = await rawGet("/assets/app-1a2b.js", { "accept-encoding": "gzip;q=0, deflate" })
    expect(refused.headers["content-encoding"]).toBeUndefined()
    const gz = await rawGet("/assets/app-1a2b.js", { "accept-encoding": "gzip" })
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT)

    // A file without a .gz beside it is sent as it is, without Vary.
    const image = await fetch(`${url}/assets/logo-9f8e.png`)
    expect(image.headers.get("content-type")).toBe("image/png")
    expect(image.headers.get("content-encoding")).toBeNull()
    expect(image.headers.get("vary")).toBeNull()
  })

  it("answers an unknown asset, and the asset directory, with the API's 404", async () => {
    for (const asset of ["/assets/gone-0000.js", "/assets/", "/assets/%2e%2e%2findex.html"]) {
      const response = await fetch(`${url}${asset}`, { headers: { accept: HTML } })
      expect(response.status, asset).toBe(404)
      expect(await response.json(), asset).toEqual({ type: "invalid_request", code: "not_found", detail: "Not found.", attr: null })
    }
  })

  it("gives a deep link the browser loads the page, logged by the console's template, never by its path", async () => {
    written.length = 0
    for (const link of ["/project/7", "/organization/abc?page=2", "/login?next=%2Fproject%2F7", "/no/such/page"]) {
      const response = await fetch(`${url}${link}`, { headers: { accept: HTML } })
      expect(response.status, link).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-cache")
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      expect(await response.text()).toBe(PAGE)
    }
    const head = await fetch(`${url}/project/7`, { method: "HEAD", headers: { accept: HTML } })
    expect(head.status).toBe(200)
    const entries = await logged()
    expect(entries.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ["GET", "/*", 200],
      ["GET", "/*", 200],
      ["GET", "/*", 200],
      ["GET", "/*", 200],
      ["HEAD", "/*", 200]
    ])
    expect(written.join("")).not.toContain("/project/7")
  })

  it("leaves the API's paths to the API, whatever the request accepts", async () => {
    written.length = 0
    const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null }
    for (const unknown of ["/api/nope/", "/api", "/flags/extra/", "/_health/more"]) {
      const response = await fetch(`${url}${unknown}`, { headers: { accept: HTML } })
      expect(response.status, unknown).toBe(404)
      expect(await response.json(), unknown).toEqual(notFound)
    }
    // A known path keeps its own answers: 401 without a key, 405 for another method, 200 for health.
    const refused = await fetch(`${url}/api/organizations/`, { headers: { accept: HTML } })
    expect(refused.status).toBe(401)
    expect((await refused.json()).code).toBe("not_authenticated")
    const wrongMethod = await fetch(`${url}/flags/`, { method: "PUT", headers: { accept: HTML } })
    expect(wrongMethod.status).toBe(405)
    expect((await fetch(`${url}/_health`, { headers: { accept: HTML } })).status).toBe(200)
    // Not a browser asking for a page (curl, a script): an unknown path is the API's 404.
    const script = await fetch(`${url}/project/7`, { headers: { accept: "*/*" } })
    expect(script.status).toBe(404)
    expect(await script.json()).toEqual(notFound)
    // Nor a write to a console path.
    expect((await fetch(`${url}/project/7`, { method: "POST", headers: { accept: HTML } })).status).toBe(404)
    const paths = (await logged()).map((entry) => entry.path)
    expect(paths).not.toContain("/*")
  })
})

describe("a server without the console", () => {
  it("refuses to start, before opening the store, when the console is not built", async () => {
    const missing = path.join(dir, "not-built")
    const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(
      HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: { dataDir: path.join(dir, "never-opened") }, webConsoleDir: missing })
        .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} }))))
    )))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain(`the web console is not built (no ${path.join(missing, "index.html")})`)
    expect(() => rmSync(path.join(dir, "never-opened"))).toThrow(/ENOENT/)
  })

  it("is the API alone: a deep link is the API's 404, and / too", async () => {
    const api = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} })
      .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} })))))
    try {
      const base = await api.runPromise(HedgerowServer.baseUrl)
      for (const link of ["/", "/project/7", "/assets/app-1a2b.js"]) {
        const response = await fetch(`${base}${link}`, { headers: { accept: HTML } })
        expect(response.status, link).toBe(404)
        expect((await response.json()).code, link).toBe("not_found")
      }
    } finally {
      await api.dispose()
    }
  })
})

describe("Accept-Encoding", () => {
  it("admits gzip by name or by *, unless its weight is 0", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true)
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true)
    expect(acceptsGzip("*")).toBe(true)
    expect(acceptsGzip("GZIP")).toBe(true)
    expect(acceptsGzip("gzip;q=0")).toBe(false)
    expect(acceptsGzip("gzip;q=0.000")).toBe(false)
    expect(acceptsGzip("identity")).toBe(false)
    expect(acceptsGzip("x-gzip2")).toBe(false)
    expect(acceptsGzip(undefined)).toBe(false)
  })
})

/** A GET through node:http, which (unlike fetch) sends exactly the Accept-Encoding given and decodes nothing. */
const rawGet = async (pathname: string, headers: Record<string, string>) => {
  const { request } = await import("node:http")
  return new Promise<{ headers: Record<string, string | Array<string> | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${url}${pathname}`, { headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on("error", reject)
    req.end()
  })
}
