import { Effect } from "effect"
import { HedgerowFixture } from "./hedgerow-target.ts"

/** The management API as a setup calls it, over the fixture's server and key; a non-2xx fails with its body. */
export const call = (method: string, path: string, body?: unknown) =>
  Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    const response = yield* Effect.promise(() =>
      fetch(`${fixture.baseUrl}${path}`, {
        method,
        headers: { ...fixture.authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }))
    const text = yield* Effect.promise(() => response.text())
    if (!response.ok) return yield* Effect.fail(new Error(`${method} ${path} answered ${response.status}: ${text}`))
    return JSON.parse(text) as { readonly id: number; readonly group_type_index: number; readonly api_token: string }
  })
