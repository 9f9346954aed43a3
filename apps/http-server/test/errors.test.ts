import { HedgerowApi } from "@hedgerow/api"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import * as ErrorEnvelope from "../src/middleware/error-envelope.ts"
import { OpenApi } from "effect/http-api"

describe("unexpected failures", () => {
  it("answer 500 with the envelope and a request id, never the cause", async () => {
    const dying = HttpRouter.add("GET", "/boom", Effect.die(new Error("secret database password in a stack trace")))
    const { handler, dispose } = HttpRouter.toWebHandler(Layer.mergeAll(dying, ErrorEnvelope.layer), { disableLogger: true })
    try {
      const response = await handler(new Request("http://localhost/boom"))
      const requestId = response.headers.get("x-request-id")
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({
        type: "server_error",
        code: "error",
        detail: `A server error occurred (request id ${requestId}).`,
        attr: null
      })
    } finally {
      await dispose()
    }
  })

  it("leave ordinary responses alone apart from the request id", async () => {
    const fine = HttpRouter.add("GET", "/fine", HttpServerResponse.text("fine"))
    const { handler, dispose } = HttpRouter.toWebHandler(Layer.mergeAll(fine, ErrorEnvelope.layer), { disableLogger: true })
    try {
      const response = await handler(new Request("http://localhost/fine"))
      expect(response.status).toBe(200)
      expect(await response.text()).toBe("fine")
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await dispose()
    }
  })
})

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists every path of the contract with its envelope errors", () => {
    const spec = OpenApi.fromApi(HedgerowApi)
    expect(spec.openapi).toBe("3.1.0")
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining([
      "/api/organizations/",
      "/api/organizations/{organization_id}/",
      "/api/organizations/{organization_id}/projects/",
      "/api/organizations/{organization_id}/projects/{id}/",
      "/api/projects/",
      "/api/projects/{project_id}/",
      "/api/users/@me/",
      "/api/personal_api_keys/@current/",
      "/_health"
    ]))
    const create = spec.paths["/api/organizations/{organization_id}/projects/"]!.post!
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "404", "413", "415"]))
  })

  it("documents the definitions for local evaluation: 200 or 304, If-None-Match, the token and send_cohorts", () => {
    const spec = OpenApi.fromApi(HedgerowApi)
    for (const path of ["/api/feature_flag/local_evaluation/", "/flags/definitions/", "/api/projects/{project_id}/feature_flags/local_evaluation/"]) {
      const get = spec.paths[path]!.get!
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(["200", "304", "401", "403", "404"]))
      expect(get.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(
        expect.arrayContaining(["header if-none-match", "query token", "query send_cohorts"])
      )
    }
  })

  it("documents remote evaluation: no security, the body, 200 in each shape, 400, 401 and 413", () => {
    const spec = OpenApi.fromApi(HedgerowApi)
    for (const path of ["/flags/", "/decide/"]) {
      const post = spec.paths[path]!.post!
      expect(post.security ?? []).toEqual([])
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "413"]))
      expect(post.requestBody).toBeDefined()
      expect(post.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(expect.arrayContaining(["query v", "query compression"]))
    }
  })
})
