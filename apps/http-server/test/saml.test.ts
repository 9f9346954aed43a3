import type { OrganizationId } from "@hedgerow/core"
import { Effect, type Layer, ManagedRuntime } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash } from "node:crypto"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { inflateRawSync } from "node:zlib"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { type Answer, formOf, keyPair, type KeyPair, startIdp, type TestIdp } from "./saml-idp.ts"
import { freePort, samlDomain, samlServerLayer } from "./saml-server.ts"

/** Behind a proxy as far as the server knows, so that each test's browser comes from an address of its own (see SsoThrottle). */
const serverLayer = (port: number, site: string) => samlServerLayer(site, { port, env: { HEDGEROW_TRUST_PROXY: "true" } })
type Served = Layer.Success<ReturnType<typeof serverLayer>>

/**
 * SAML log-in over real HTTP: the server under test, and samlify as the identity provider of a verified
 * domain, signing with a certificate made for the run. Each log-in starts at `/login/saml/`, follows
 * the redirect to the IdP, and posts the form the IdP's page holds to the ACS, as a browser does.
 */
describe("SAML log-in against a real identity provider", () => {
  let runtime: ManagedRuntime.ManagedRuntime<Served, Layer.Error<ReturnType<typeof serverLayer>>>
  /** Where the tests reach the server: plain HTTP on loopback. */
  let url = ""
  /** The site as people reach it, and as the server names itself: https, as in production. */
  let site = ""
  let idp: TestIdp
  let stranger: KeyPair
  let organization = "" as OrganizationId
  let domainId = ""

  const run = <A, E>(effect: Effect.Effect<A, E, Served>) => runtime.runPromise(effect)
  const sql = <A extends object>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>) =>
    run(Effect.flatMap(SqlClient.SqlClient, query))

  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    site = `https://127.0.0.1:${port}`
    runtime = ManagedRuntime.make(serverLayer(port, site))
    await run(HedgerowServer.baseUrl)
    idp = await startIdp(await (await fetch(`${url}/api/saml/metadata/`)).text())
    stranger = await keyPair("not.the.idp.example")
    const domain = await samlDomain(runtime, idp)
    organization = domain.organization
    domainId = domain.domainId
  })
  afterAll(async () => {
    await idp?.stop()
    await runtime?.dispose()
  })

  /** The address the current test's browser comes from, as the proxy says. */
  let address = ""
  let tests = 0
  beforeEach(() => {
    address = `192.0.2.${++tests}`
  })
  const start = (query: string) => fetch(`${url}/login/saml/${query}`, { redirect: "manual", headers: { "x-forwarded-for": address } })
  const postForm = (action: string, fields: Record<string, string>, type = "application/x-www-form-urlencoded", cookie?: string) =>
    fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": type, "x-forwarded-for": address, ...(cookie === undefined ? {} : { cookie }) },
      body: new URLSearchParams(fields).toString()
    })

  /** The `name=value` pair of the cookie an answer sets under `name`. */
  const setCookie = (reply: Response, name: string) =>
    reply.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!).find((pair) => pair.startsWith(`${name}=`))
  /**
   * The IdP's page for a log-in that `started`, as a browser holds it: the form (posted to the server
   * where the site's ACS is) and the cookie the start set.
   */
  const idpPage = async (started: Response) => {
    expect(started.status).toBe(302)
    const page = await fetch(started.headers.get("location")!)
    expect(page.status).toBe(200)
    const form = formOf(await page.text())
    return { action: form.action.replace(site, url), fields: form.fields, cookie: setCookie(started, "hedgerow_saml_login")! }
  }
  /** The IdP's form for a log-in started with `email`, once the IdP answered as `answer` says. */
  const idpForm = async (answer: Answer, email = "ada@acme.test") => {
    idp.next = answer
    return idpPage(await start(`?email=${encodeURIComponent(email)}`))
  }
  type IdpForm = Awaited<ReturnType<typeof idpForm>>
  /** The form posted by the browser that started its log-in (its cookie), with `fields` in its stead when given. */
  const answer = (form: IdpForm, fields = form.fields, cookie = form.cookie) =>
    postForm(form.action, fields, "application/x-www-form-urlencoded", cookie)
  const logIn = async (reply: Answer, email?: string) => answer(await idpForm(reply, email))
  /** The form again with the Response's XML changed by `change`. */
  const tampered = (form: IdpForm, change: (xml: string) => string) => ({
    ...form,
    fields: { ...form.fields, SAMLResponse: Buffer.from(change(Buffer.from(form.fields["SAMLResponse"]!, "base64").toString("utf8"))).toString("base64") }
  })
  const failure = (detail: string) =>
    `/login?${new URLSearchParams({ error_code: "social_login_failure", error_detail: detail })}`
  const expectFailure = async (reply: Response, detail: string) => {
    expect(reply.status).toBe(302)
    expect(reply.headers.get("location")).toBe(failure(detail))
    expect(reply.headers.getSetCookie()).toEqual([])
  }
  /** The cookies an answer leaves in a browser, as a `cookie` header: those it removes (Max-Age=0) are not sent again. */
  const cookieHeader = (reply: Response) =>
    reply.headers.getSetCookie().filter((cookie) => !cookie.includes("Max-Age=0")).map((cookie) => cookie.split(";")[0]).join("; ")
  const me = (cookie: string) => fetch(`${url}/api/users/@me/`, { headers: { cookie } })

  it("publishes the service provider's metadata: the site as entity id, its ACS by HTTP-POST", async () => {
    const reply = await fetch(`${url}/api/saml/metadata/`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toBe("text/xml; charset=utf-8")
    expect(await reply.text()).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${site}">` +
        `<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
        `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>` +
        `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${site}/complete/saml/" index="1"/>` +
        `</md:SPSSODescriptor></md:EntityDescriptor>\n`
    )
  })

  it("sends an e-mail of a SAML domain to its identity provider with an AuthnRequest and the domain as RelayState", async () => {
    const reply = await start("?email=Grace%40ACME.test")
    expect(reply.status).toBe(302)
    const location = new URL(reply.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(idp.ssoUrl)
    expect(location.searchParams.get("RelayState")).toBe(domainId)
    const xml = inflateRawSync(Buffer.from(location.searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
    const id = /ID="(_[0-9A-Za-z]{40})"/.exec(xml)?.[1]
    expect(id).toBeDefined()
    expect(xml).toContain(`Destination="${idp.ssoUrl}"`)
    expect(xml).toContain(`AssertionConsumerServiceURL="${site}/complete/saml/"`)
    expect(xml).toContain(`<saml:Issuer>${site}</saml:Issuer>`)
    // Held server-side until answered or expired.
    const held = await sql<{ domain_id: string }>((db) => db`SELECT domain_id FROM saml_requests WHERE id = ${id!}`)
    expect(held).toEqual([{ domain_id: domainId }])
  })

  it("answers a start it cannot make with PostHog's improperly_configured_sso, no request held", async () => {
    const before = await sql<{ n: number }>((db) => db`SELECT count(*)::integer AS n FROM saml_requests`)
    for (const query of ["", "?email=", "?email=ada%40elsewhere.test", "?email=not-an-email"]) {
      const reply = await start(query)
      expect(reply.status).toBe(302)
      expect(reply.headers.get("location")).toBe("/login?error_code=improperly_configured_sso")
    }
    expect(await sql<{ n: number }>((db) => db`SELECT count(*)::integer AS n FROM saml_requests`)).toEqual(before)
  })

  it("logs a new person of a JIT domain in: an account, a membership, a session, and back to the console", async () => {
    const reply = await logIn({ email: "ada@acme.test", attributes: { email: "Ada@Acme.test", first_name: "Ada", last_name: "Lovelace" } })
    expect(reply.status).toBe(302)
    expect(reply.headers.get("location")).toBe("/")
    const cookies = reply.headers.getSetCookie()
    expect(cookies.some((cookie) => cookie.startsWith("sessionid=") && cookie.includes("HttpOnly"))).toBe(true)
    expect(cookies.some((cookie) => cookie.startsWith("posthog_csrftoken="))).toBe(true)
    const user = await me(cookieHeader(reply))
    expect(user.status).toBe(200)
    const body = await user.json() as { email: string; first_name: string; organization: { id: string } | null }
    expect([body.email, body.first_name, body.organization?.id]).toEqual(["ada@acme.test", "Ada", organization])
  })

  it("takes the e-mail from the NameID when no attribute names one, and the names from the OID attributes", async () => {
    const reply = await logIn({
      email: "hopper@acme.test",
      attributes: { "urn:oid:2.5.4.42": "Grace", "urn:oid:2.5.4.4": "Hopper" }
    })
    expect(reply.headers.get("location")).toBe("/")
    const body = await (await me(cookieHeader(reply))).json() as { email: string; first_name: string; last_name: string }
    expect([body.email, body.first_name, body.last_name]).toEqual(["hopper@acme.test", "Grace", "Hopper"])
  })

  it("logs in with a Response signed as a whole instead of its Assertion", async () => {
    const reply = await logIn({ email: "lin@acme.test", signResponseOnly: true })
    expect(idp.lastResponse).not.toMatch(/<saml:Assertion[^>]*>.*<ds:Signature/s)
    expect(reply.headers.get("location")).toBe("/")
  })

  it("refuses the same answer twice: its request is used up", async () => {
    const form = await idpForm({ email: "twice@acme.test" })
    expect((await answer(form)).headers.get("location")).toBe("/")
    await expectFailure(
      await answer(form),
      "The Response answers no pending request of this service provider: it expired, was answered already or was never sent."
    )
  })

  it("refuses an assertion seen before, even answering another request", async () => {
    const tags = { AssertionID: "_the-same-assertion-every-time" }
    expect((await logIn({ email: "seen@acme.test", tags })).headers.get("location")).toBe("/")
    await expectFailure(await logIn({ email: "seen@acme.test", tags }), "The assertion was used before: it is accepted once.")
  })

  it("refuses an answer to a request this server never issued", async () => {
    await expectFailure(
      await logIn({ tags: { InResponseTo: "_never-issued" } }),
      "The Response answers no pending request of this service provider: it expired, was answered already or was never sent."
    )
  })

  describe("bound to the browser that started it", () => {
    const ELSEWHERE = "This log-in was started in another browser: start it again from this one."

    it("sets a secret cookie at the start, sent only to the ACS and on the identity provider's cross-site POST, stored hashed", async () => {
      const reply = await start("?email=ada%40acme.test")
      const cookie = reply.headers.getSetCookie().find((header) => header.startsWith("hedgerow_saml_login="))!
      const [pair, ...attributes] = cookie.split("; ")
      expect(pair).toMatch(/^hedgerow_saml_login=[0-9A-Za-z]{40}$/)
      expect(attributes.sort()).toEqual(["HttpOnly", "Max-Age=600", "Path=/complete/saml/", "SameSite=None", "Secure"])
      const id = /ID="(_[0-9A-Za-z]{40})"/.exec(
        inflateRawSync(Buffer.from(new URL(reply.headers.get("location")!).searchParams.get("SAMLRequest")!, "base64")).toString("utf8")
      )![1]!
      const key = pair!.slice("hedgerow_saml_login=".length)
      expect(await sql((db) => db`SELECT browser_hash FROM saml_requests WHERE id = ${id}`))
        .toEqual([{ browser_hash: `sha256$${createHash("sha256").update(key).digest("hex")}` }])
    })

    it("refuses an answer posted from another browser: someone's own log-in planted in a visitor's browser", async () => {
      // The attacker starts a log-in to their own account and keeps the identity provider's answer, which
      // a page of theirs then posts from the visitor's browser: with no cookie, or with the visitor's own.
      const planted = await idpForm({ email: "mallory@acme.test" })
      await expectFailure(await answer(planted, planted.fields, ""), ELSEWHERE)
      const visitor = await idpForm({ email: "visitor@acme.test" })
      const plantedAgain = await idpForm({ email: "mallory@acme.test" })
      await expectFailure(await answer(plantedAgain, plantedAgain.fields, visitor.cookie), ELSEWHERE)
      expect(await sql((db) => db`SELECT id FROM users WHERE email = 'mallory@acme.test'`)).toEqual([])
      // The visitor's own log-in, from their browser, still goes through.
      expect((await answer(visitor)).headers.get("location")).toBe("/")
    })

    it("uses the answer up even when it refuses it: the browser that started it cannot take it afterwards", async () => {
      const form = await idpForm({ email: "once@acme.test" })
      await expectFailure(await answer(form, form.fields, ""), ELSEWHERE)
      await expectFailure(
        await answer(form),
        "The Response answers no pending request of this service provider: it expired, was answered already or was never sent."
      )
    })

    it("refuses a cookie that is not a browser key, and removes the cookie once the log-in succeeds", async () => {
      const form = await idpForm({ email: "cookie@acme.test" })
      await expectFailure(await answer(form, form.fields, "hedgerow_saml_login=not-a-key"), ELSEWHERE)
      const again = await idpForm({ email: "cookie@acme.test" })
      const reply = await answer(again)
      expect(reply.headers.get("location")).toBe("/")
      const cleared = reply.headers.getSetCookie().find((header) => header.startsWith("hedgerow_saml_login="))!
      expect(cleared).toMatch(/^hedgerow_saml_login=; Max-Age=0; .*Path=\/complete\/saml\//)
    })
  })

  it("refuses an unsolicited answer, which names no request", async () => {
    await expectFailure(
      await logIn({ template: (t) => t.replaceAll(' InResponseTo="{InResponseTo}"', "") }),
      "The Response answers no request of this service provider."
    )
  })

  it("refuses a Response signed by any key but the domain's certificate", async () => {
    await expectFailure(await logIn({ keys: stranger }), "Signature validation failed. SAML Response rejected")
  })

  it("refuses a signature made with SHA-1", async () => {
    await expectFailure(
      await logIn({ signatureAlgorithm: "http://www.w3.org/2000/09/xmldsig#rsa-sha1" }),
      "The identity provider signs with an algorithm not accepted here: use RSA with SHA-256."
    )
  })

  it("refuses an encrypted assertion", async () => {
    const form = await idpForm({})
    const encrypted = tampered(form, (xml) => xml.replace("<samlp:Status>", "<saml:EncryptedAssertion/><samlp:Status>"))
    await expectFailure(
      await answer(encrypted),
      "Encrypted assertions are not supported: have the identity provider sign the assertion unencrypted."
    )
  })

  it("refuses an unsigned Response", async () => {
    const form = await idpForm({})
    const unsigned = tampered(form, (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ""))
    await expectFailure(await answer(unsigned), "The assertion of the Response is not signed.")
  })

  it("refuses a signed Response whose content was changed after signing", async () => {
    const form = await idpForm({ email: "ada@acme.test" })
    const changed = tampered(form, (xml) => xml.replaceAll("ada@acme.test", "eve@acme.test"))
    await expectFailure(await answer(changed), "Signature validation failed. SAML Response rejected")
  })

  describe("signature wrapping", () => {
    const forged = (xml: string) => {
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0]
      return signed
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")
        .replace(/ID="[^"]+"/, 'ID="_forged"')
        .replaceAll("ada@acme.test", "owner@example.com")
    }

    it("refuses a forged unsigned assertion placed before the signed one", async () => {
      const form = await idpForm({ email: "ada@acme.test" })
      const wrapped = tampered(form, (xml) => xml.replace("<saml:Assertion", `${forged(xml)}<saml:Assertion`))
      await expectFailure(await answer(wrapped), "The Response must hold exactly one Assertion.")
    })

    it("refuses a forged assertion in the signed one's place, the signed one moved into Extensions", async () => {
      const form = await idpForm({ email: "ada@acme.test" })
      const wrapped = tampered(form, (xml) => {
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0]
        return xml.replace(signed, forged(xml)).replace("<samlp:Status>", `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`)
      })
      await expectFailure(await answer(wrapped), "The Response must hold exactly one Assertion.")
    })

    it("refuses a forged assertion carrying the signed one's ID, the signed one inside its Advice", async () => {
      const form = await idpForm({ email: "ada@acme.test" })
      const wrapped = tampered(form, (xml) => {
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0]
        const id = /ID="([^"]+)"/.exec(signed)![1]!
        const outer = forged(xml).replace('ID="_forged"', `ID="${id}"`).replace("<saml:Conditions", `<saml:Advice>${signed}</saml:Advice><saml:Conditions`)
        return xml.replace(signed, outer)
      })
      await expectFailure(await answer(wrapped), "The Response must hold exactly one Assertion.")
    })

    it("refuses the assertion's signature moved up to sign the Response in its stead", async () => {
      const form = await idpForm({ email: "ada@acme.test" })
      const moved = tampered(form, (xml) => {
        const signature = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)![0]
        return xml.replace(signature, "").replace("<samlp:Status>", `${signature}<samlp:Status>`)
      })
      await expectFailure(await answer(moved), "Signature validation failed. SAML Response rejected")
    })
  })

  it("reads a NameID split by a comment whole, as it was signed", async () => {
    // A naive reader stops at the comment and sees owner@acme.test; the signed value is the whole text.
    const form = await idpForm({ email: "owner@acme.test.evil.example", attributes: {} })
    const injected = tampered(form, (xml) => xml.replace("owner@acme.test.evil.example", "owner@acme.test<!---->.evil.example"))
    await expectFailure(
      await answer(injected),
      "The e-mail's domain (acme.test.evil.example) does not match the configured domain (acme.test)."
    )
  })

  it("refuses an e-mail of another domain than the one whose identity provider signed", async () => {
    await expectFailure(
      await logIn({ email: "owner@example.com" }),
      "The e-mail's domain (example.com) does not match the configured domain (acme.test)."
    )
  })

  it("refuses a Response with no e-mail", async () => {
    await expectFailure(
      await logIn({ nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent", attributes: { first_name: "Ada" } }),
      "Missing needed parameter email"
    )
  })

  it.each([
    ["an expired assertion", { ConditionsNotOnOrAfter: new Date(Date.now() - 10 * 60_000).toISOString() },
      "Could not validate timestamp: expired. Check system clock."],
    ["an assertion not yet valid", { ConditionsNotBefore: new Date(Date.now() + 10 * 60_000).toISOString() },
      "Could not validate timestamp: not yet valid. Check system clock."],
    ["an expired subject confirmation", { SubjectConfirmationDataNotOnOrAfter: new Date(Date.now() - 10 * 60_000).toISOString() },
      "Could not validate timestamp: expired. Check system clock."],
    ["another audience", { Audience: "https://another.example" }, "Invalid audience for this Response: https://another.example."],
    ["another recipient", { SubjectRecipient: "https://another.example/complete/saml/" },
      "The Assertion is for https://another.example/complete/saml/ instead of {url}/complete/saml/."],
    ["another destination", { Destination: "https://another.example/complete/saml/" },
      "The response was received at {url}/complete/saml/ instead of https://another.example/complete/saml/."],
    ["another issuer", { Issuer: "https://impostor.example" }, "Invalid issuer in the Assertion: https://impostor.example."],
    ["a status other than Success", { StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Responder" },
      "The identity provider did not log the user in (status urn:oasis:names:tc:SAML:2.0:status:Responder)."]
  ])("refuses %s", async (_, tags, detail) => {
    await expectFailure(await logIn({ tags }), detail.replace("{url}", site))
  })

  it("refuses a RelayState that names no verified SAML domain", async () => {
    const form = await idpForm({})
    for (const relay of ["", "not-a-uuid", "00000000-0000-4000-8000-000000000000", JSON.stringify({ idp: "nope" })]) {
      await expectFailure(await answer(form, { ...form.fields, RelayState: relay }), "Authentication request is invalid. Invalid RelayState.")
    }
  })

  it("returns to the page a log-in was started for, carried in PostHog's JSON RelayState", async () => {
    const started = await start(`?email=ada%40acme.test&next=${encodeURIComponent("/project/7?tab=flags")}`)
    const relay = new URL(started.headers.get("location")!).searchParams.get("RelayState")
    expect(relay).toBe(JSON.stringify({ idp: domainId, next: "/project/7?tab=flags" }))
    idp.next = { email: "next@acme.test" }
    const form = await idpPage(started)
    expect(form.fields["RelayState"]).toBe(relay)
    const reply = await answer(form)
    expect(reply.headers.get("location")).toBe("/project/7?tab=flags")
  })

  it("never returns to another site: a next that is not a local path is dropped", async () => {
    for (const next of ["//evil.example/", "https://evil.example/", "/\\evil.example", "evil", "/a\nb", "/€", "/a b", `/${"a".repeat(2048)}`]) {
      const started = await start(`?email=ada%40acme.test&next=${encodeURIComponent(next)}`)
      expect(new URL(started.headers.get("location")!).searchParams.get("RelayState")).toBe(domainId)
    }
    // Nor when the RelayState coming back was changed on the way.
    const form = await idpForm({ email: "away@acme.test" })
    const reply = await answer(form, { ...form.fields, RelayState: JSON.stringify({ idp: domainId, next: "//evil.example/" }) })
    expect(reply.headers.get("location")).toBe("/")
  })

  it("completes whatever next the RelayState brings back: one no Location header can hold lands on the console's home", async () => {
    // RelayState comes back unsigned: anyone posting the form may write any next into it.
    for (const next of ["/€", "/a b", "/a\u0000b", "/\u2028", "/é?x=ü", `/${"a".repeat(5000)}`]) {
      const form = await idpForm({ email: "anywhere@acme.test" })
      const reply = await answer(form, { ...form.fields, RelayState: JSON.stringify({ idp: domainId, next }) })
      expect(reply.status).toBe(302)
      expect(reply.headers.get("location")).toBe("/")
      expect((await me(cookieHeader(reply))).status).toBe(200)
    }
  })

  it("ends the session the browser came with when it logs in again", async () => {
    const first = await logIn({ email: "again@acme.test" })
    const cookie = cookieHeader(first)
    expect((await me(cookie)).status).toBe(200)
    const form = await idpForm({ email: "again@acme.test" })
    const second = await answer(form, form.fields, `${cookie}; ${form.cookie}`)
    expect(second.headers.get("location")).toBe("/")
    expect((await me(cookie)).status).toBe(401)
    expect((await me(cookieHeader(second))).status).toBe(200)
  })

  it("refuses every answer while the domain's certificate cannot be read", async () => {
    await sql((db) => db`UPDATE domains SET saml_x509_cert = 'not a certificate' WHERE id = ${domainId}`)
    try {
      await expectFailure(await logIn({}), "The domain's SAML certificate (saml_x509_cert) cannot be read.")
    } finally {
      await sql((db) => db`UPDATE domains SET saml_x509_cert = ${idp.keys.certificateBody} WHERE id = ${domainId}`)
    }
  })

  it("without just-in-time provisioning, logs existing users in and refuses people new to the deployment", async () => {
    await sql((db) => db`UPDATE domains SET jit_provisioning_enabled = false WHERE id = ${domainId}`)
    try {
      expect((await logIn({ email: "ada@acme.test" })).headers.get("location")).toBe("/")
      const reply = await logIn({ email: "newcomer@acme.test" })
      expect(reply.status).toBe(302)
      expect(reply.headers.get("location")).toBe("/login?error_code=jit_not_enabled")
      expect(await sql((db) => db`SELECT id FROM users WHERE email = 'newcomer@acme.test'`)).toEqual([])
    } finally {
      await sql((db) => db`UPDATE domains SET jit_provisioning_enabled = true WHERE id = ${domainId}`)
    }
  })

  describe("hostile answers", () => {
    const acs = () => `${url}/complete/saml/`
    const post = (xml: string, relay = domainId) => postForm(acs(), { SAMLResponse: Buffer.from(xml).toString("base64"), RelayState: relay })

    /** The longest the event loop stood still while `work` ran, in milliseconds. */
    const stall = async (work: () => Promise<unknown>) => {
      const histogram = monitorEventLoopDelay({ resolution: 1 })
      histogram.enable()
      await work()
      histogram.disable()
      return histogram.max / 1e6
    }

    it("refuses a DTD before parsing: no entity is ever expanded", async () => {
      const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>` +
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&b;</samlp:Response>`
      await expectFailure(await post(bomb), "The SAML message carries a DTD, which is never accepted.")
    })

    it("refuses a deeply nested document quickly", async () => {
      const depth = 8_000
      const nested = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${"<a>".repeat(depth)}${"</a>".repeat(depth)}</samlp:Response>`
      const stalls: Array<number> = []
      for (let round = 0; round < 3; round++) {
        let reply: Response | undefined
        stalls.push(await stall(async () => {
          reply = await post(nested)
        }))
        await expectFailure(reply!, "The SAML message is nested too deeply.")
      }
      // The least of a few rounds: the machine running the tests may be busy with other work.
      expect(Math.min(...stalls)).toBeLessThan(50)
    })

    it("refuses a body over the limit without reading it whole", async () => {
      const huge = "A".repeat(2 * 1024 * 1024)
      const reply = await postForm(acs(), { SAMLResponse: huge, RelayState: domainId })
      await expectFailure(reply, "The SAML message is too large.")
    })

    it("cuts a refusal's detail short when it quotes a long value", async () => {
      const destination = `https://another.example/${"a".repeat(5000)}`
      const reply = await logIn({ tags: { Destination: destination } })
      const detail = `The response was received at ${site}/complete/saml/ instead of ${destination}.`
      expect(reply.headers.get("location")).toBe(failure(detail.slice(0, 300)))
    })

    it("refuses malformed XML, a message that is not a Response, and a body that is no form", async () => {
      await expectFailure(await post("<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\">"),
        "The SAML message is not well-formed XML.")
      await expectFailure(await post("<x/>"), "The message is not a SAML Response.")
      await expectFailure(await postForm(acs(), { SAMLResponse: "%%%" }), "The SAMLResponse is not base64.")
      await expectFailure(await postForm(acs(), {}), "Missing needed parameter SAMLResponse")
      await expectFailure(await postForm(acs(), { SAMLResponse: "PHgvPg==" }, "application/json"),
        "The SAML answer must be posted as a form (HTTP-POST binding).")
    })

    it("holds the event loop only briefly for the largest document it reads, which the worker checks", async () => {
      const stalls: Array<number> = []
      for (const round of [1, 2, 3, 4, 5]) {
        // Refused for its audience once the worker has read it: what is measured is the SAML side alone, not the store.
        const form = await idpForm({ email: `big${round}@acme.test`, tags: { Audience: "https://another.example" } })
        const padded = tampered(form, (xml) =>
          xml.replace("<samlp:Status>", `<samlp:Extensions>${`<x>${"padding ".repeat(24)}</x>`.repeat(300)}</samlp:Extensions><samlp:Status>`))
        expect(Buffer.from(padded.fields["SAMLResponse"]!, "base64").length).toBeGreaterThan(60_000)
        let reply: Response | undefined
        stalls.push(await stall(async () => {
          reply = await answer(padded)
        }))
        await expectFailure(reply!, "Invalid audience for this Response: https://another.example.")
      }
      // The least of a few rounds: the machine running the tests may be busy with other work.
      expect(Math.min(...stalls)).toBeLessThan(50)
    })
  })
})
