import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { getToolsFromContext, PostHogAgentToolkit } from "@posthog/agent-toolkit"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/** The toolkit's feature-flag tools, each offered only to a key with the scope it declares. */
const FLAG_TOOLS = ["create-feature-flag", "delete-feature-flag", "feature-flag-get-all", "feature-flag-get-definition", "update-feature-flag"]
const READ_FLAG_TOOLS = ["feature-flag-get-all", "feature-flag-get-definition"]

/**
 * PostHog's own agent toolkit (what its MCP server runs), unchanged, pointed at a real Hedgerow server:
 * it reads the calling key from `/api/personal_api_keys/@current` and offers the tools its scopes allow,
 * and none at all if the key's restrictions come back as null instead of lists.
 */
describe("@posthog/agent-toolkit 0.2.4 against a Hedgerow server", () => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  let url = ""
  let key = ""
  let project = 0

  const api = async (method: string, path: string, body?: unknown, as = key) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as any }
  }

  /** A key of the owner's with these scopes and restrictions, made over the API. */
  const keyWith = async (body: Record<string, unknown>) => {
    const made = await api("POST", "/api/personal_api_keys/", { label: "agent", ...body })
    expect(made.status).toBe(201)
    return made.body.value as string
  }

  const toolkitFor = (token: string) => new PostHogAgentToolkit({ posthogApiToken: token, posthogApiBaseUrl: url })
  const toolNames = async (token: string) => (await toolkitFor(token).getTools()).map((tool) => tool.name)

  beforeAll(async () => {
    await runtime.runPromise(Effect.gen(function*() {
      url = yield* HedgerowServer.baseUrl
      const boot = yield* (yield* Bootstrap).run({ email: "agent@example.com" })
      key = boot.personal_api_key
      project = boot.project_id
    }))
    expect((await api("POST", `/api/projects/${project}/feature_flags/`, { key: "agent-visible", name: "Seen by the agent" })).status).toBe(201)
  })

  afterAll(async () => {
    await runtime.dispose()
  })

  it("apiKeys().current() validates the calling key: restrictions are lists, empty for an unrestricted key", async () => {
    const current = await toolkitFor(key).getContext().api.apiKeys().current()
    expect(current.success, JSON.stringify(current)).toBe(true)
    if (!current.success) return
    expect(current.data).toEqual({ scopes: ["*"], scoped_teams: [], scoped_organizations: [] })
  })

  it("getTools() offers every feature-flag tool for a * key, and the read ones for a feature_flag:read key", async () => {
    const all = await toolNames(key)
    for (const name of FLAG_TOOLS) expect(all).toContain(name)
    const readOnly = await toolNames(await keyWith({ scopes: ["feature_flag:read"] }))
    expect(readOnly.filter((name) => FLAG_TOOLS.includes(name)).sort()).toEqual(READ_FLAG_TOOLS)
  })

  it("the feature-flag tools run: a key restricted to the project lists the project's flags", async () => {
    const restricted = await keyWith({ scopes: ["feature_flag:read", "project:read"], scoped_teams: [project] })
    const context = toolkitFor(restricted).getContext()
    const tools = await getToolsFromContext(context)
    const getAll = tools.find((tool) => tool.name === "feature-flag-get-all")!
    const answer = await getAll.handler(context, {}) as { content: Array<{ text: string }> }
    const listed = JSON.parse(answer.content[0]!.text) as Array<{ key: string; name: string; active: boolean }>
    expect(listed.map(({ key, name, active }) => ({ key, name, active }))).toEqual([
      { key: "agent-visible", name: "Seen by the agent", active: true }
    ])
  })
})
