import { createHash, randomBytes } from "node:crypto"
import * as http from "node:http"
import { formOf, json, later, listen, sendBack } from "./loopback.ts"

/** What GitHub says of the person who logs in next, and how it misbehaves, as a test sets it. */
export interface GitHubScript {
  user: unknown
  emails: unknown
  /** Routes that answer only after this long (Infinity: never). */
  delays: Partial<Record<"token" | "user" | "emails", number>>
  /** `/user/emails` sends this many bytes of JSON whitespace before its answer. */
  padEmails: number
  /** `/user/emails` sends its headers, then a space every 50 ms, never ending. */
  trickleEmails: boolean
}

/**
 * GitHub's OAuth app endpoints as GitHub answers them, on loopback: the authorization page logs the
 * script's person in at once; the token endpoint checks the client's secret, the code, the redirect URI
 * and the PKCE verifier, and refuses with 200 and an `error` field, as GitHub does; the API wants the
 * token it issued and a User-Agent.
 */
export const startGitHub = async (client: { readonly id: string; readonly secret: string }) => {
  const script: GitHubScript = { user: {}, emails: [], delays: {}, padEmails: 0, trickleEmails: false }
  const codes = new Map<string, { readonly challenge: string; readonly redirectUri: string }>()
  const tokens = new Set<string>()
  const authorizations: Array<URLSearchParams> = []
  let base = ""

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", base)
    if (url.pathname === "/login/oauth/authorize") {
      authorizations.push(url.searchParams)
      const code = randomBytes(10).toString("hex")
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", redirectUri: url.searchParams.get("redirect_uri") ?? "" })
      return sendBack(response, url.searchParams, code)
    }
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
      void formOf(request).then((form) => later(script.delays.token, () => {
        const issued = codes.get(form.get("code") ?? "")
        codes.delete(form.get("code") ?? "")
        if (form.get("client_id") !== client.id || form.get("client_secret") !== client.secret) return json(response, 200, { error: "incorrect_client_credentials" })
        const verifier = form.get("code_verifier") ?? ""
        if (issued === undefined || issued.redirectUri !== form.get("redirect_uri") ||
          createHash("sha256").update(verifier).digest("base64url") !== issued.challenge) {
          return json(response, 200, { error: "bad_verification_code" })
        }
        const token = `gho_${randomBytes(16).toString("hex")}`
        tokens.add(token)
        json(response, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" })
      }))
      return
    }
    const authorized = tokens.has((request.headers.authorization ?? "").replace(/^Bearer /, "")) && request.headers["user-agent"] !== undefined
    if (url.pathname === "/api/user") {
      return later(script.delays.user, () => authorized ? json(response, 200, script.user) : json(response, 401, { message: "Bad credentials" }))
    }
    if (url.pathname === "/api/user/emails" && script.trickleEmails) {
      response.writeHead(200, { "content-type": "application/json" })
      const drip = setInterval(() => response.write(" "), 50)
      response.on("close", () => clearInterval(drip))
      return
    }
    if (url.pathname === "/api/user/emails") {
      return later(script.delays.emails, () =>
        authorized ? json(response, 200, script.emails, script.padEmails) : json(response, 401, { message: "Bad credentials" }))
    }
    json(response, 404, { message: "Not Found" })
  })
  const listening = await listen(server)
  base = listening.base
  return { webUrl: base, apiUrl: `${base}/api`, script, authorizations, close: listening.close }
}

/** The settings that point a server at a GitHub on loopback (`startGitHub`) with `client`. */
export const gitHubSettings = (github: { readonly webUrl: string; readonly apiUrl: string }, client: { readonly id: string; readonly secret: string }) => ({
  HEDGEROW_OAUTH_GITHUB_CLIENT_ID: client.id,
  HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: client.secret,
  HEDGEROW_OAUTH_GITHUB_URL: github.webUrl,
  HEDGEROW_OAUTH_GITHUB_API_URL: github.apiUrl
})
