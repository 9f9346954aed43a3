import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Call, EndpointRef, Reply, Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { expectReply } from "./scenario.ts"

export const login = { group: "sessions", endpoint: "login" } as const
export const logout = { group: "sessions", endpoint: "logout" } as const
export const prevalidate = { group: "signup", endpoint: "prevalidate" } as const
export const accept = { group: "signup", endpoint: "accept" } as const
export const me = { group: "identity", endpoint: "me" } as const
export const updateMe = { group: "identity", endpoint: "updateMe" } as const
export const createInvite = { group: "invites", endpoint: "create" } as const

/** The session cookies PostHog's names use. */
export const SESSION = "sessionid"
export const CSRF = "posthog_csrftoken"

/** A `Set-Cookie` header read back: its value and its attributes by lower-case name (`max-age`, `httponly`, ...). */
export interface SeenCookie {
  readonly value: string
  readonly attributes: Readonly<Record<string, string>>
}

export const cookiesSet = (reply: Reply): Readonly<Record<string, SeenCookie>> =>
  Object.fromEntries((reply.setCookies ?? []).map((header) => {
    const [pair, ...attributes] = header.split(";").map((part) => part.trim())
    const eq = pair!.indexOf("=")
    return [pair!.slice(0, eq), {
      value: pair!.slice(eq + 1),
      attributes: Object.fromEntries(attributes.map((attribute) => {
        const at = attribute.indexOf("=")
        return at === -1 ? [attribute.toLowerCase(), ""] : [attribute.slice(0, at).toLowerCase(), attribute.slice(at + 1)]
      }))
    }] as const
  }))

/**
 * A browser's cookie jar: it keeps what answers set, sends it back, and echoes the CSRF cookie in
 * `X-CSRFToken` on writes, as PostHog's console does, unless told not to.
 */
export class Browser {
  cookies: Record<string, string> = {}
  readonly target: Target
  constructor(target: Target) {
    this.target = target
  }

  take(reply: Reply): Reply {
    for (const [name, cookie] of Object.entries(cookiesSet(reply))) {
      if (cookie.attributes["max-age"] === "0") delete this.cookies[name]
      else this.cookies[name] = cookie.value
    }
    return reply
  }

  async call(ref: EndpointRef, call: Call = {}, options: { readonly csrf?: boolean } = {}): Promise<Reply> {
    const token = this.cookies[CSRF]
    const headers = { ...(options.csrf !== false && token !== undefined ? { "x-csrftoken": token } : {}), ...call.headers }
    return this.take(await this.target.call(ref, { ...call, cookies: { ...this.cookies, ...call.cookies }, headers }))
  }
}

/** An address no other run uses, at `domain`. */
export const freshEmail = (prefix: string, domain = "sessions.example") => `${prefix}-${randomUUID().slice(0, 8)}@${domain}`

/** An address as prevalidation shows it: PostHog's mask keeps the local part's first and last characters. */
export const maskedEmail = (email: string) => {
  const at = email.indexOf("@")
  return `${email[0]}${"*".repeat(at - 2)}${email.slice(at - 1)}`
}

export interface Teammate {
  readonly email: string
  readonly password: string
  /** Logged in by accepting the invite. */
  readonly browser: Browser
  readonly inviteId: string
}

/** The owner of A invites a new address (at `domain`), which accepts with a password over HTTP only and is logged in. */
export const newTeammate = async (target: Target, world: World, prefix = "teammate", level = 1, domain?: string): Promise<Teammate> => {
  const email = freshEmail(prefix, domain)
  const invited = await target.call(createInvite, {
    key: world.keys.ownerA,
    params: { organization_id: world.orgA },
    body: { target_email: email, first_name: "Tess", level, send_email: false }
  })
  expectReply(invited, 201)
  const password = `pw-${randomUUID()}`
  const browser = new Browser(target)
  const accepted = await browser.call(accept, { params: { invite_id: invited.body.id }, body: { first_name: "Tess", password } })
  expectReply(accepted, 201)
  assert.ok(browser.cookies[SESSION], "accepting logs the new user in")
  return { email, password, browser, inviteId: invited.body.id }
}

/** A new browser logged in as `email`. */
export const loggedIn = async (target: Target, email: string, password: string): Promise<Browser> => {
  const browser = new Browser(target)
  expectReply(await browser.call(login, { body: { email, password } }), 200, { success: true })
  return browser
}
