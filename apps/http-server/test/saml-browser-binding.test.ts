import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { formOf, startIdp, type TestIdp } from "./saml-idp.ts"
import { freePort, samlDomain, samlServerLayer } from "./saml-server.ts"

const ELSEWHERE = "This log-in was started in another browser: start it again from this one."

const serve = (site: string, options?: Parameters<typeof samlServerLayer>[1]) => ManagedRuntime.make(samlServerLayer(site, options))
type Runtime = ReturnType<typeof serve>

/** A log-in started at `server` for `email`, as the browser holds it once the IdP answered: its form and its cookie. */
const started = async (server: string, idp: TestIdp, email: string) => {
  idp.next = { email }
  const start = await fetch(`${server}/login/saml/?email=${encodeURIComponent(email)}`, { redirect: "manual" })
  expect(start.status).toBe(302)
  const cookie = start.headers.getSetCookie().find((header) => header.startsWith("hedgerow_saml_login="))!
  const form = formOf(await (await fetch(start.headers.get("location")!)).text())
  return { form, cookie: cookie.split(";")[0]!, setCookie: cookie }
}

/** The IdP's form posted to the ACS of `server`, with `cookie` when given. */
const post = (server: string, form: { readonly fields: Record<string, string> }, cookie?: string) =>
  fetch(`${server}/complete/saml/`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie === undefined ? {} : { cookie }) },
    body: new URLSearchParams(form.fields).toString()
  })

const refusedAs = (reply: Response, detail: string) => {
  expect(reply.status).toBe(302)
  expect(reply.headers.get("location")).toBe(`/login?${new URLSearchParams({ error_code: "social_login_failure", error_detail: detail })}`)
  expect(reply.headers.getSetCookie()).toEqual([])
}

/**
 * The binding holds in the store: a log-in started at one server of a deployment is completed at
 * another only by the browser that started it.
 */
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("a SAML log-in's browser across two servers on one PostgreSQL database", () => {
    const site = "https://hedgerow.test"
    let database: { url: string; drop: () => Promise<void> }
    const runtimes: Array<Runtime> = []
    const urls: Array<string> = []
    let idp: TestIdp

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_saml")
      for (let i = 0; i < 2; i++) {
        const runtime = serve(site, { store: { databaseUrl: database.url } })
        runtimes.push(runtime)
        urls.push(await runtime.runPromise(HedgerowServer.baseUrl))
      }
      idp = await startIdp(await (await fetch(`${urls[0]}/api/saml/metadata/`)).text())
      await samlDomain(runtimes[0]!, idp)
    }, 60_000)
    afterAll(async () => {
      await idp?.stop()
      for (const runtime of runtimes) await runtime.dispose()
      await database?.drop()
    })

    it("completes at the other server for the browser that started it, and refuses another browser there", async () => {
      const [a, b] = urls as [string, string]
      const planted = await started(a, idp, "mallory@acme.test")
      refusedAs(await post(b, planted.form), ELSEWHERE)
      const own = await started(a, idp, "ada@acme.test")
      const reply = await post(b, own.form, own.cookie)
      expect(reply.status).toBe(302)
      expect(reply.headers.get("location")).toBe("/")
      expect(reply.headers.getSetCookie().some((cookie) => cookie.startsWith("sessionid="))).toBe(true)
    })
  })
})

/**
 * On a plain-http site (development only) no browser keeps a cookie a cross-site POST would carry: the
 * cookie is `SameSite=Lax` there and checked only when the browser sends it.
 */
describe("a SAML log-in's browser on a plain-http site", () => {
  let runtime: Runtime
  let url = ""
  let idp: TestIdp

  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    runtime = serve(url, { port })
    await runtime.runPromise(HedgerowServer.baseUrl)
    idp = await startIdp(await (await fetch(`${url}/api/saml/metadata/`)).text())
    await samlDomain(runtime, idp)
  })
  afterAll(async () => {
    await idp?.stop()
    await runtime?.dispose()
  })

  it("sets a Lax cookie without Secure, for the ACS alone", async () => {
    const { setCookie } = await started(url, idp, "ada@acme.test")
    const [pair, ...attributes] = setCookie.split("; ")
    expect(pair).toMatch(/^hedgerow_saml_login=[0-9A-Za-z]{40}$/)
    expect(attributes.sort()).toEqual(["HttpOnly", "Max-Age=600", "Path=/complete/saml/", "SameSite=Lax"])
  })

  it("accepts an answer that comes without the cookie, and refuses one with another browser's", async () => {
    const cookieless = await started(url, idp, "ada@acme.test")
    expect((await post(url, cookieless.form)).headers.get("location")).toBe("/")
    const other = await started(url, idp, "grace@acme.test")
    const planted = await started(url, idp, "mallory@acme.test")
    refusedAs(await post(url, planted.form, other.cookie), ELSEWHERE)
    expect((await post(url, other.form, other.cookie)).headers.get("location")).toBe("/")
  })
})
