import { createHash, randomBytes } from "node:crypto"
import * as http from "node:http"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"
import { formOf, json, later, listen, sendBack } from "./loopback.ts"

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>

/** What the issuer puts in the next ID tokens, and how it misbehaves, as a test sets it. */
export interface IssuerScript {
  /** The person's claims (sub, email, email_verified, names). */
  claims: JWTPayload
  /** Changes the token's claims after the issuer made them (another nonce, audience, expiry). */
  tweak: (claims: JWTPayload) => JWTPayload
  /** Sign with a key the issuer does not publish. */
  signWithStrangerKey: boolean
  /** Routes that answer only after this long (or never: Infinity). */
  delays: Partial<Record<"discovery" | "token" | "jwks", number>>
  /** The issuer the discovery document names, when not this one. */
  discoveredIssuer: string | undefined
}

/**
 * An OpenID provider on loopback whose ID tokens a test controls: discovery, an authorization endpoint
 * that logs the script's person in at once, a token endpoint that checks the client's secret, the
 * redirect URI and the PKCE verifier against the code it issued, and its signing keys.
 */
export const startIssuer = async (client: { readonly id: string; readonly secret: string }) => {
  const keys: KeyPair = await generateKeyPair("RS256")
  const stranger: KeyPair = await generateKeyPair("RS256")
  const publicJwk = { ...(await exportJWK(keys.publicKey)), kid: "main", alg: "RS256", use: "sig" }
  const script: IssuerScript = { claims: {}, tweak: (claims) => claims, signWithStrangerKey: false, delays: {}, discoveredIssuer: undefined }
  const codes = new Map<string, { readonly nonce: string; readonly challenge: string; readonly redirectUri: string }>()
  const authorizations: Array<URLSearchParams> = []
  const tokenRequests: Array<URLSearchParams> = []
  let issuer = ""

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", issuer)
    if (url.pathname === "/.well-known/openid-configuration") {
      return later(script.delays.discovery, () =>
        json(response, 200, { issuer: script.discoveredIssuer ?? issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }))
    }
    if (url.pathname === "/jwks") return later(script.delays.jwks, () => json(response, 200, { keys: [publicJwk] }))
    if (url.pathname === "/authorize") {
      authorizations.push(url.searchParams)
      const code = randomBytes(16).toString("hex")
      codes.set(code, {
        nonce: url.searchParams.get("nonce") ?? "",
        challenge: url.searchParams.get("code_challenge") ?? "",
        redirectUri: url.searchParams.get("redirect_uri") ?? ""
      })
      return sendBack(response, url.searchParams, code)
    }
    if (url.pathname === "/token" && request.method === "POST") {
      void formOf(request).then((form) => later(script.delays.token, async () => {
        tokenRequests.push(form)
        const issued = codes.get(form.get("code") ?? "")
        codes.delete(form.get("code") ?? "")
        const verifier = form.get("code_verifier") ?? ""
        if (form.get("client_id") !== client.id || form.get("client_secret") !== client.secret) return json(response, 401, { error: "invalid_client" })
        if (issued === undefined || issued.redirectUri !== form.get("redirect_uri") || form.get("grant_type") !== "authorization_code") {
          return json(response, 400, { error: "invalid_grant" })
        }
        if (createHash("sha256").update(verifier).digest("base64url") !== issued.challenge) return json(response, 400, { error: "invalid_grant" })
        const now = Math.floor(Date.now() / 1000)
        const claims = script.tweak({ iss: issuer, aud: client.id, iat: now, exp: now + 300, nonce: issued.nonce, ...script.claims })
        const token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "main" })
          .sign(script.signWithStrangerKey ? stranger.privateKey : keys.privateKey)
        json(response, 200, { access_token: randomBytes(16).toString("hex"), token_type: "Bearer", expires_in: 300, id_token: token })
      }))
      return
    }
    json(response, 404, { error: "not_found" })
  })
  const listening = await listen(server)
  issuer = listening.base
  return { issuer, script, authorizations, tokenRequests, close: listening.close }
}
