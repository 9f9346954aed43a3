import { SAML_ANSWER_LIMIT, SSO_START_LIMIT } from "@hedgerow/core"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { startGitHub } from "./oauth/github.ts"
import { formOf, keyPair, startIdp, type TestIdp } from "./saml-idp.ts"
import { samlDomain, type SamlServer, samlServerLayer } from "./saml-server.ts"

const SITE = "https://hedgerow.test"
const CLIENT = { id: "Iv1.hedgerow", secret: "github-client-secret" }
const THROTTLED = /^Request was throttled\. Expected available in [1-5] seconds?\.$/

/**
 * SSO log-ins counted per client address, behind a proxy (HEDGEROW_TRUST_PROXY) so that each test's
 * clients come from addresses of their own: starts of SAML and OAuth together, and answers posted to
 * the ACS before they wait for the signature worker.
 */
describe("SSO log-ins per client address", () => {
  let runtime: SamlServer
  let github: Awaited<ReturnType<typeof startGitHub>>
  let idp: TestIdp
  let url = ""
  let domainId = ""

  beforeAll(async () => {
    github = await startGitHub(CLIENT)
    runtime = ManagedRuntime.make(samlServerLayer(SITE, {
      env: {
        HEDGEROW_TRUST_PROXY: "true",
        HEDGEROW_OAUTH_GITHUB_CLIENT_ID: CLIENT.id,
        HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: CLIENT.secret,
        HEDGEROW_OAUTH_GITHUB_URL: github.webUrl,
        HEDGEROW_OAUTH_GITHUB_API_URL: github.apiUrl
      }
    }))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    idp = await startIdp(await (await fetch(`${url}/api/saml/metadata/`)).text())
    domainId = (await samlDomain(runtime, idp)).domainId
  }, 60_000)
  afterAll(async () => {
    await idp?.stop()
    await runtime?.dispose()
    await github?.close()
  })

  const from = (address: string, cookie?: string) => ({ "x-forwarded-for": `${address}, 10.0.0.1`, ...(cookie === undefined ? {} : { cookie }) })
  const samlStart = (address: string, email = "ada@acme.test") =>
    fetch(`${url}/login/saml/?email=${encodeURIComponent(email)}`, { redirect: "manual", headers: from(address) })
  const githubStart = (address: string) => fetch(`${url}/login/github/`, { redirect: "manual", headers: from(address) })
  /** The IdP's form for a log-in `address` started, and the cookie the start set. */
  const idpForm = async (address: string, email: string) => {
    idp.next = { email }
    const started = await samlStart(address, email)
    const cookie = started.headers.getSetCookie().find((header) => header.startsWith("hedgerow_saml_login="))!.split(";")[0]!
    return { fields: formOf(await (await fetch(started.headers.get("location")!)).text()).fields, cookie }
  }
  const postAnswer = (address: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${url}/complete/saml/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...from(address, cookie) },
      body: new URLSearchParams(fields).toString()
    })
  /** Where a refusal sends the browser: the log-in page's code and detail. */
  const refusal = (reply: Response) => {
    expect(reply.status).toBe(302)
    const location = new URL(reply.headers.get("location")!, url)
    expect(location.pathname).toBe("/login")
    return { code: location.searchParams.get("error_code"), detail: location.searchParams.get("error_detail") ?? "" }
  }
  const pendingRows = () =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ n: number }>`SELECT ((SELECT count(*) FROM saml_requests) + (SELECT count(*) FROM oauth_pending_logins))::integer AS n`))

  /** An answer the size of the largest read, signed by a key that is not the domain's: refused once the worker has checked it. */
  const bogusAnswer = async () => {
    const stranger = await keyPair("not.the.idp.example")
    idp.next = { email: "bogus@acme.test", keys: stranger }
    const started = await samlStart("192.0.2.250")
    const form = formOf(await (await fetch(started.headers.get("location")!)).text())
    const xml = Buffer.from(form.fields["SAMLResponse"]!, "base64").toString("utf8")
      .replace("<samlp:Status>", `<samlp:Extensions>${`<x>${"padding ".repeat(24)}</x>`.repeat(300)}</samlp:Extensions><samlp:Status>`)
    expect(xml.length).toBeGreaterThan(60_000)
    return { SAMLResponse: Buffer.from(xml).toString("base64"), RelayState: domainId }
  }
  const SIGNATURE_FAILED = "Signature validation failed. SAML Response rejected"

  it("admits an address's SAML and OAuth starts together up to the limit, then refuses without writing; another address still starts", async () => {
    const address = "203.0.113.1"
    const before = (await pendingRows())[0]!.n
    const admitted = await Promise.all([
      ...Array.from({ length: SSO_START_LIMIT / 2 }, () => samlStart(address)),
      ...Array.from({ length: SSO_START_LIMIT / 2 }, () => githubStart(address))
    ])
    for (const reply of admitted) {
      expect(reply.status).toBe(302)
      expect(new URL(reply.headers.get("location")!, url).pathname).not.toBe("/login")
    }
    expect((await pendingRows())[0]!.n).toBe(before + SSO_START_LIMIT)
    for (const reply of [await samlStart(address), await githubStart(address)]) {
      const { code, detail } = refusal(reply)
      expect(code).toBe("throttled")
      expect(detail).toMatch(THROTTLED)
      expect(reply.headers.getSetCookie()).toEqual([])
    }
    expect((await pendingRows())[0]!.n).toBe(before + SSO_START_LIMIT)
    const other = await samlStart("203.0.113.2")
    expect(other.headers.get("location")!.startsWith(idp.ssoUrl)).toBe(true)
  })

  it("refuses an address's answers past the limit before they wait for the signature check", async () => {
    const address = "203.0.113.3"
    const bogus = await bogusAnswer()
    for (let i = 0; i < SAML_ANSWER_LIMIT; i++) expect(refusal(await postAnswer(address, bogus)).detail).toBe(SIGNATURE_FAILED)
    const { code, detail } = refusal(await postAnswer(address, bogus))
    expect(code).toBe("throttled")
    expect(detail).toMatch(THROTTLED)
  })

  it("logs another address in while one address floods the ACS with large answers of bogus signatures", async () => {
    const flooder = "203.0.113.4"
    const bogus = await bogusAnswer()
    const own = await idpForm("198.51.100.7", "grace@acme.test")
    const flood = Array.from({ length: 120 }, () => postAnswer(flooder, bogus))
    const reply = await postAnswer("198.51.100.7", own.fields, own.cookie)
    expect(reply.status).toBe(302)
    expect(reply.headers.get("location")).toBe("/")
    expect(reply.headers.getSetCookie().some((cookie) => cookie.startsWith("sessionid="))).toBe(true)
    const refusals = await Promise.all((await Promise.all(flood)).map(refusal))
    // Every answer of the flood is either checked and refused for its signature, or refused unread; at
    // most two windows' worth were checked, and none found the worker's queue full.
    expect(refusals.every(({ code, detail }) => code === "throttled" ? THROTTLED.test(detail) : detail === SIGNATURE_FAILED)).toBe(true)
    expect(refusals.filter(({ code }) => code !== "throttled").length).toBeLessThanOrEqual(2 * SAML_ANSWER_LIMIT)
  })
})
