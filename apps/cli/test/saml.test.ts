import { Bootstrap, bodyOf, DomainService, systemActor } from "@hedgerow/core"
import { Hedgerow } from "@hedgerow/store"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-saml-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A store with a verified domain whose SAML settings name a certificate that cannot be read; its id. */
const prepareStore = async () => {
  const runtime = ManagedRuntime.make(Hedgerow.layer({ dataDir }))
  try {
    return await runtime.runPromise(Effect.gen(function*() {
      const { organization_id } = yield* Bootstrap.use((b) => b.run({ email: "owner@example.com" }))
      const domain = yield* DomainService.use((s) => s.create(systemActor, organization_id, bodyOf({ domain: "acme.example" })))
      yield* (yield* SqlClient.SqlClient)`UPDATE domains SET verified_at = now() WHERE id = ${domain.id}`
      yield* DomainService.use((s) =>
        s.update(systemActor, organization_id, domain.id, bodyOf({
          saml_entity_id: "https://idp.example",
          saml_acs_url: "https://idp.example/sso",
          saml_x509_cert: "not a certificate"
        })))
      return domain.id
    }))
  } finally {
    await runtime.dispose()
  }
}

describe("SAML log-in in the built hedgerow serve", () => {
  it("checks an identity provider's answer on its worker thread, found from the bundle", async () => {
    const domain = await prepareStore()
    const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
    try {
      const url = await servingUrl(server)
      await waitFor(server, /Ctrl-C/)
      // The default site is plain http, where no browser carries the answer's cookie cross-site: the start says so.
      expect(server.output()).toContain("SAML log-in on a plain-http HEDGEROW_SITE_URL checks the browser of an answer only when it sends its cookie")
      const post = (xml: string) =>
        fetch(`${url}/complete/saml/`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString("base64"), RelayState: domain }).toString()
        })
      const detailOf = async (xml: string) => {
        const reply = await post(xml)
        expect(reply.status).toBe(302)
        const location = new URL(reply.headers.get("location")!, url)
        expect([location.pathname, location.searchParams.get("error_code")]).toEqual(["/login", "social_login_failure"])
        return location.searchParams.get("error_detail")
      }
      // Both refusals are the worker's own words: a failed worker would answer a failed signature.
      expect(await detailOf("<!DOCTYPE x><x/>")).toBe("The SAML message carries a DTD, which is never accepted.")
      const signed = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r">` +
        `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a">` +
        `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/></saml:Assertion></samlp:Response>`
      expect(await detailOf(signed)).toBe("The domain's SAML certificate (saml_x509_cert) cannot be read.")
    } finally {
      server.child.kill("SIGTERM")
      expect(await server.exited).toBe(0)
    }
  })
})
