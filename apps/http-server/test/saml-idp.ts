import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as samlify from "samlify"
import { generate } from "selfsigned"

/**
 * A SAML identity provider for the tests: samlify as the IdP, on its own HTTP server, signing with a
 * certificate made for the test run. It answers SAML's HTTP-Redirect binding at `/sso` with the page an
 * IdP sends after its log-in, the auto-posting form holding its signed Response, which the tests read and
 * post as a browser would.
 */

// The IdP checks the shape of the requests it receives only through a validator the caller supplies;
// the service provider under test is what these tests judge, so its requests are taken as they come.
samlify.setSchemaValidator({ validate: () => Promise.resolve("not checked by the test identity provider") })

export const IDP_ENTITY_ID = "https://idp.test.example/metadata"

export interface KeyPair {
  readonly privateKey: string
  readonly certificate: string
  /** The certificate's base64 body alone, as an admin pastes it into `saml_x509_cert`. */
  readonly certificateBody: string
}

export const keyPair = async (name: string): Promise<KeyPair> => {
  const pems = await generate([{ name: "commonName", value: name }], { keySize: 2048, algorithm: "sha256" })
  return {
    privateKey: pems.private,
    certificate: pems.cert,
    certificateBody: pems.cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
  }
}

/** What the IdP says about the person logging in, and anything of its Response a test changes. */
export interface Answer {
  readonly email?: string
  readonly nameIdFormat?: string
  readonly attributes?: Record<string, string>
  /** Values of samlify's template tags (`Audience`, `ConditionsNotOnOrAfter`, `InResponseTo`, ...). */
  readonly tags?: Record<string, string>
  /** The template itself, for a Response of another shape. */
  readonly template?: (template: string) => string
  /** Sign with these keys instead of the IdP's own. */
  readonly keys?: KeyPair
  /** Sign the Response and not the Assertion. */
  readonly signResponseOnly?: boolean
  /** The signature algorithm, RSA-SHA256 unless told. */
  readonly signatureAlgorithm?: string
}

const attributeStatement = (attributes: Record<string, string>) =>
  Object.keys(attributes).length === 0 ? "" :
    `<saml:AttributeStatement>${Object.entries(attributes).map(([name, value]) =>
      `<saml:Attribute Name="${name}"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`
    ).join("")}</saml:AttributeStatement>`

/** Text inside a quoted HTML attribute, and back. */
const escapeAttribute = (text: string) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")
const unescapeAttribute = (text: string) => text.replaceAll("&lt;", "<").replaceAll("&quot;", '"').replaceAll("&amp;", "&")

const samlId = () => `_${randomBytes(20).toString("hex")}`

export interface TestIdp {
  readonly ssoUrl: string
  readonly keys: KeyPair
  /** The answer the next log-in gets. */
  next: Answer
  /** The last Response the IdP signed, as XML. */
  lastResponse: string
  readonly stop: () => Promise<void>
}

/**
 * Starts the IdP for the service provider whose metadata is `spMetadata` (as the server under test
 * publishes it).
 */
export const startIdp = async (spMetadata: string): Promise<TestIdp> => {
  const keys = await keyPair("idp.test.example")
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const ssoUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`
  const identityProvider = (signing: KeyPair, algorithm = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256") =>
    samlify.IdentityProvider({
      entityID: IDP_ENTITY_ID,
      privateKey: signing.privateKey,
      signingCert: signing.certificate,
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
      singleSignOnService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: ssoUrl }],
      // Never used here; named so that samlify has its log-out endpoint and does not warn of it.
      singleLogoutService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: `${ssoUrl}/logout` }],
      requestSignatureAlgorithm: algorithm
    })
  const serviceProvider = samlify.ServiceProvider({ metadata: spMetadata })
  const responseOnlyProvider = samlify.ServiceProvider({
    metadata: spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
    wantMessageSigned: true
  })
  const idp: TestIdp = {
    ssoUrl,
    keys,
    next: {},
    lastResponse: "",
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
  server.on("request", (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", ssoUrl)
      const query = Object.fromEntries(url.searchParams)
      const answer = idp.next
      const sp = answer.signResponseOnly === true ? responseOnlyProvider : serviceProvider
      const signer = identityProvider(answer.keys ?? keys, answer.signatureAlgorithm)
      const parsed = await signer.parseLoginRequest(sp, "redirect", { query, octetString: "" })
      const now = new Date()
      const later = new Date(now.getTime() + 5 * 60 * 1000)
      const email = answer.email ?? "ada@acme.test"
      const acs = sp.entityMeta.getAssertionConsumerService("post") as string
      const values: Record<string, string> = {
        ID: samlId(),
        AssertionID: samlId(),
        Destination: acs,
        Audience: sp.entityMeta.getEntityID(),
        SubjectRecipient: acs,
        Issuer: IDP_ENTITY_ID,
        IssueInstant: now.toISOString(),
        StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later.toISOString(),
        SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
        NameIDFormat: answer.nameIdFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        NameID: email,
        InResponseTo: String(parsed.extract.request?.id ?? ""),
        AuthnStatement: "",
        ...answer.tags
      }
      const made = await signer.createLoginResponse(sp, { extract: parsed.extract }, "post", { email }, {
        relayState: query["RelayState"] ?? "",
        customTagReplacement: (template: string) => {
          // The attributes are XML of their own, which the tag replacement would escape.
          const statement = attributeStatement(answer.attributes ?? { email, first_name: "Ada", last_name: "Lovelace" })
          const shaped = (answer.template ?? ((t: string) => t))(template).replace("{AttributeStatement}", statement)
          const context = samlify.SamlLib.replaceTagsByValue(shaped, values)
          return { id: values["ID"]!, context }
        }
      })
      idp.lastResponse = Buffer.from(made.context, "base64").toString("utf8")
      const target = "entityEndpoint" in made ? String(made.entityEndpoint) : acs
      const relay = "relayState" in made && made.relayState !== undefined ? String(made.relayState) : ""
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(
        `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${target}">` +
          `<input type="hidden" name="SAMLResponse" value="${made.context}"/>` +
          `<input type="hidden" name="RelayState" value="${escapeAttribute(relay)}"/>` +
          `</form></body></html>`
      )
    })().catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" })
      response.end(String(error))
    })
  })
  return idp
}

/** The form of an IdP's page: where it posts, and its fields. */
export const formOf = (page: string): { readonly action: string; readonly fields: Record<string, string> } => {
  const action = /<form[^>]* action="([^"]*)"/.exec(page)?.[1] ?? ""
  const fields: Record<string, string> = {}
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) fields[match[1]!] = unescapeAttribute(match[2]!)
  return { action, fields }
}
