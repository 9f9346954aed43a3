import { HedgerowApi } from "@hedgerow/api"
import { ManagedRuntime } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiScalar, OpenApi } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

// The docs page does not depend on the store: the embedded one serves.
describe("the rendered docs", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
  })
  afterAll(() => runtime.dispose())

  it("are a page of Scalar's bundled script over the OpenAPI document, at the path with and without its slash, on every visit", async () => {
    const schema = (await (await fetch(`${url}/api/schema/`)).json()) as { readonly info: { readonly title: string } }
    const pages: Array<string> = []
    for (const path of ["/api/docs/", "/api/docs", "/api/docs/"]) {
      const response = await fetch(`${url}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/)
      pages.push(await response.text())
    }
    expect(pages[0]).toContain(`<title>${schema.info.title}</title>`)
    expect(pages[0]).toContain("Scalar.createApiReference")
    // Scalar's script is inline, megabytes of it, rather than fetched from a CDN.
    expect(pages[0]!.length).toBeGreaterThan(1_000_000)
    expect(pages[0]).not.toContain("<script src=")
    expect(new Set(pages).size).toBe(1)
  })

  it("are sent as Effect's own renderings are, byte for byte, with their length: the page and the OpenAPI document as JSON", async () => {
    const scalar = HttpRouter.toWebHandler(HttpApiScalar.layer(HedgerowApi, { path: "/api/docs/" }), { disableLogger: true })
    const rendered = [
      { path: "/api/docs/", type: "text/html", body: await (await scalar.handler(new Request("http://localhost/api/docs/"))).bytes() },
      { path: "/api/schema/", type: "application/json", body: new TextEncoder().encode(JSON.stringify(OpenApi.fromApi(HedgerowApi))) }
    ]
    await scalar.dispose()
    for (const { path, type, body } of rendered) {
      for (let visit = 0; visit < 2; visit++) {
        const response = await fetch(`${url}${path}`)
        expect(response.headers.get("content-type"), path).toBe(type)
        expect(response.headers.get("content-length"), path).toBe(String(body.length))
        expect(Buffer.from(await response.arrayBuffer()).equals(body), path).toBe(true)
      }
    }
  })
})
