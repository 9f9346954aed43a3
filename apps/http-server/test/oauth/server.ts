import { Bootstrap, bodyOf, DomainService, systemActor, UserService } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { HedgerowServer } from "../../src/index.ts"
import { Browser } from "./browser.ts"

/** The site URL the server is told it is reached at; the tests' browsers reach it at its loopback address. */
export const SITE = "http://hedgerow.test"

/**
 * A server on the embedded store, behind a proxy as far as it knows, whose OAuth providers `env` configures, with a first organization, a
 * domain of it verified with JIT provisioning, and a user who already has an account; every line it logs
 * is kept in `written`.
 */
export const startServer = async (env: Record<string, string>) => {
  const written: Array<string> = []
  let browsers = 0
  const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_SITE_URL: SITE, HEDGEROW_TRUST_PROXY: "true", ...env } }), { asPrimary: true })
  const runtime = ManagedRuntime.make(HedgerowServer.layer({
    port: 0,
    host: "127.0.0.1",
    store: {},
    log: { level: "info", format: "json", sink: (text) => void written.push(text) }
  }).pipe(Layer.provide(config)))
  const url = await runtime.runPromise(HedgerowServer.baseUrl)
  const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({ email: "owner@example.com" })))
  await runtime.runPromise(Effect.gen(function*() {
    const domain = yield* DomainService.use((s) => s.create(systemActor, boot.organization_id, bodyOf({ domain: "jit.example" })))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${domain.id}`
    yield* DomainService.use((s) => s.update(systemActor, boot.organization_id, domain.id, bodyOf({ jit_provisioning_enabled: true })))
    yield* UserService.use((s) => s.create(systemActor, { email: "ada@known.example", first_name: "Ada" }))
  }))
  const sql = <A extends object>(run: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run))
  return {
    url,
    organization: boot.organization_id,
    written,
    sql,
    /** The server's own services, for what the operator does in-process. */
    runtime,
    /**
     * A new browser, whose requests to the site go to this server, from an address of its own as the
     * proxy says: each browser's log-ins are counted apart (SsoThrottle).
     */
    browser: () =>
      new Browser((address) => address.startsWith(SITE) ? url + address.slice(SITE.length) : address, {
        "x-forwarded-for": `198.18.${Math.floor(++browsers / 256)}.${browsers % 256}`
      }),
    close: () => runtime.dispose()
  }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>

/** Each step of a log-in, the browser following every redirect by hand. */
export const logIn = async (browser: Browser, provider: string, next?: string) => {
  const begin = `${SITE}/login/${provider}/${next === undefined ? "" : `?${new URLSearchParams({ next })}`}`
  const start = await browser.request(begin)
  const toProvider = Browser.location(start, begin)
  const atProvider = await browser.request(toProvider)
  const callback = Browser.location(atProvider, toProvider)
  const done = await browser.request(callback)
  return { start, toProvider: new URL(toProvider), callback, done, location: done.headers.get("location") }
}

/** Who the browser's session is, by the API's `/api/users/@me/`: its status and e-mail. */
export const whoAmI = async (browser: Browser) => {
  const reply = await browser.request(`${SITE}/api/users/@me/`)
  return reply.status === 200 ? ((await reply.json()) as { email: string; first_name: string; last_name: string }) : reply.status
}
