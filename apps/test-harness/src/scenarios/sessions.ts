import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import {
  accept,
  Browser,
  CSRF,
  cookiesSet,
  createInvite,
  freshEmail,
  loggedIn,
  login,
  logout,
  maskedEmail,
  me,
  newTeammate,
  prevalidate,
  SESSION,
  updateMe
} from "./sessions-support.ts"
import { BAD_KEY, denied, envelope, expectReply, invalid, NOT_AUTHENTICATED, NOT_FOUND, needWorld, type Scenario } from "./scenario.ts"

const INVALID_CREDENTIALS = invalid(null, "Invalid email or password.", "invalid_credentials")
const loginLink = { group: "sessions", endpoint: "loginLink" } as const
const LINK_REFUSED = invalid(null, "This sign-in link has been used, has expired or is not valid.", "sign_in_link_invalid")
const NOT_VALID = invalid(null, "The provided invite ID is not valid.")
const csrf = (reason: string) => denied(`CSRF Failed: ${reason}`)
const createFlag = { group: "featureFlags", endpoint: "create" } as const
const currentKey = { group: "identity", endpoint: "currentKey" } as const

/** Two weeks: how long PostHog keeps a session, and its CSRF cookie. */
const TWO_WEEKS = String(14 * 24 * 60 * 60)

/** Accepting an invite, logging in and out, CSRF and password changes, over HTTP only but for the operator's fixtures. */
const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context) => run(context.target, needWorld(context))
})

export const sessionScenarios: ReadonlyArray<Scenario> = [
  withWorld("signup: an invitee prevalidates, accepts with a password and is logged in; the invite is then gone", async (target, world) => {
    const email = freshEmail("accepting")
    const invited = await target.call(createInvite, {
      key: world.keys.ownerA,
      params: { organization_id: world.orgA },
      body: { target_email: email, first_name: "Ada", send_email: false }
    })
    expectReply(invited, 201)
    const invite_id = invited.body.id
    expectReply(await target.call(prevalidate, { params: { invite_id } }), 200, {
      id: invite_id,
      target_email: maskedEmail(email),
      first_name: "Ada",
      organization_name: "Alpha"
    })
    const browser = new Browser(target)
    expectReply(await browser.call(accept, { params: { invite_id }, body: {} }), 400, invalid("first_name", "This field is required.", "required"))
    expectReply(
      await browser.call(accept, { params: { invite_id }, body: { first_name: "Ada" } }),
      400,
      invalid("password", "This field is required.", "required")
    )
    expectReply(
      await browser.call(accept, { params: { invite_id }, body: { first_name: "Ada", password: "short" } }),
      400,
      invalid("password", "This password is too short. It must contain at least 8 characters.", "password_too_short")
    )
    const accepted = await browser.call(accept, { params: { invite_id }, body: { first_name: "Ada", password: "a long enough secret" } })
    expectReply(accepted, 201)
    assert.equal(accepted.body.email, email)
    assert.equal(accepted.body.first_name, "Ada")
    const cookies = cookiesSet(accepted)
    assert.ok(cookies[SESSION] && cookies[CSRF], "the new user's session and CSRF cookies are set")

    const whoAmI = await browser.call(me)
    expectReply(whoAmI, 200)
    assert.equal(whoAmI.body.email, email)
    assert.equal(whoAmI.body.organization.id, world.orgA)
    assert.equal(whoAmI.body.organization.membership_level, 1)
    assert.equal(whoAmI.body.team.id, world.projectA)

    expectReply(await target.call(prevalidate, { params: { invite_id } }), 400, NOT_VALID)
    expectReply(await new Browser(target).call(accept, { params: { invite_id }, body: { first_name: "Eve", password: "another secret" } }), 400, NOT_VALID)
    expectReply(await target.call(prevalidate, { params: { invite_id: "not-a-uuid" } }), 400, NOT_VALID)
  }),

  withWorld("login sets PostHog's cookies: sessionid HttpOnly, posthog_csrftoken readable, both SameSite=Lax on / for two weeks", async (target, world) => {
    const { email, password } = await newTeammate(target, world, "cookies")
    const reply = await target.call(login, { body: { email, password } })
    expectReply(reply, 200, { success: true })
    const cookies = cookiesSet(reply)
    const session = cookies[SESSION]!
    assert.match(session.value, /^[0-9A-Za-z]{40}$/)
    assert.deepEqual(
      { path: session.attributes["path"], samesite: session.attributes["samesite"], httponly: "httponly" in session.attributes, maxAge: session.attributes["max-age"] },
      { path: "/", samesite: "Lax", httponly: true, maxAge: TWO_WEEKS }
    )
    const token = cookies[CSRF]!
    assert.match(token.value, /^[0-9A-Za-z]{32}$/)
    assert.deepEqual(
      { path: token.attributes["path"], samesite: token.attributes["samesite"], httponly: "httponly" in token.attributes, maxAge: token.attributes["max-age"] },
      { path: "/", samesite: "Lax", httponly: false, maxAge: TWO_WEEKS }
    )
    // The harness's targets are reached over http, so neither cookie is Secure there.
    assert.ok(!("secure" in session.attributes) && !("secure" in token.attributes))
  }),

  withWorld("login: wrong credentials answer PostHog's one message, known e-mail or not, and set no cookie", async (target, world) => {
    const { email } = await newTeammate(target, world, "wrong")
    for (const body of [{ email, password: "not the password" }, { email: freshEmail("nobody"), password: "not the password" }]) {
      const reply = await target.call(login, { body })
      expectReply(reply, 400, INVALID_CREDENTIALS)
      assert.deepEqual(reply.setCookies ?? [], [])
    }
    expectReply(await target.call(login, { body: { email: "nobody", password: "x" } }), 400, invalid("email", "Enter a valid email address."))
    expectReply(await target.call(login, { body: { email } }), 400, invalid("password", "This field is required.", "required"))
    expectReply(await target.call(login, { body: { email, password: "  " } }), 400, invalid("password", "This field may not be blank.", "blank"))
  }),

  {
    // Its success needs a link an operator made (see the store's, the server's and the CLI's own tests).
    name: "a sign-in link: an unknown secret, or one of the wrong shape, answers one 400 and sets no cookie; the token field is checked",
    run: async ({ target }) => {
      for (const token of ["0".repeat(43), "not a link"]) {
        const reply = await target.call(loginLink, { body: { token } })
        expectReply(reply, 400, LINK_REFUSED)
        assert.deepEqual(reply.setCookies ?? [], [])
      }
      expectReply(await target.call(loginLink, { body: {} }), 400, invalid("token", "This field is required.", "required"))
      expectReply(await target.call(loginLink, { body: { token: "  " } }), 400, invalid("token", "This field may not be blank.", "blank"))
    }
  },

  withWorld("login always opens a new session: a planted session id is never the one logged in, and the old session ends", async (target, world) => {
    const { email, password, browser } = await newTeammate(target, world, "fixation")
    const planted = "A".repeat(40)
    const fresh = await target.call(login, { body: { email, password }, cookies: { [SESSION]: planted } })
    expectReply(fresh, 200)
    assert.notEqual(cookiesSet(fresh)[SESSION]!.value, planted)

    // Logged in already: a new log-in (with the CSRF token, as any session write) replaces the session.
    const before = browser.cookies[SESSION]!
    expectReply(await browser.call(login, { body: { email, password } }), 200)
    assert.notEqual(browser.cookies[SESSION], before)
    expectReply(await target.call(me, { cookies: { [SESSION]: before } }), 401, NOT_AUTHENTICATED)
    expectReply(await browser.call(me), 200)
  }),

  withWorld("logout ends the session at once and removes its cookie; it needs the CSRF token", async (target, world) => {
    const { browser } = await newTeammate(target, world, "logout")
    const session = browser.cookies[SESSION]!
    expectReply(await browser.call(logout, {}, { csrf: false }), 403, csrf("CSRF token missing."))
    const out = await browser.call(logout)
    expectReply(out, 204)
    assert.equal(cookiesSet(out)[SESSION]?.attributes["max-age"], "0")
    expectReply(await target.call(me, { cookies: { [SESSION]: session } }), 401, NOT_AUTHENTICATED)
    // Without a session there is nothing to end; the cookie is removed all the same.
    expectReply(await target.call(logout, {}), 204)
  }),

  withWorld("a session's writes need the CSRF token echoed from its cookie; its reads do not, and personal API keys never do", async (target, world) => {
    const { browser } = await newTeammate(target, world, "csrf")
    const params = { project_id: world.projectA }
    const flag = (key: string) => ({ params, body: { key, filters: { groups: [{ rollout_percentage: 100 }] } } })
    expectReply(await browser.call(me, {}, { csrf: false }), 200)
    expectReply(await browser.call(createFlag, flag("csrf-missing"), { csrf: false }), 403, csrf("CSRF token missing."))
    expectReply(
      await browser.call(createFlag, { ...flag("csrf-wrong"), headers: { "x-csrftoken": "B".repeat(32) } }),
      403,
      csrf("CSRF token from the 'X-Csrftoken' HTTP header incorrect.")
    )
    expectReply(
      await browser.call(createFlag, { ...flag("csrf-short"), headers: { "x-csrftoken": "short" } }),
      403,
      csrf("CSRF token from the 'X-Csrftoken' HTTP header has incorrect length.")
    )
    expectReply(
      await target.call(createFlag, { ...flag("csrf-no-cookie"), cookies: { [SESSION]: browser.cookies[SESSION]! }, headers: { "x-csrftoken": browser.cookies[CSRF]! } }),
      403,
      csrf("CSRF cookie not set.")
    )
    expectReply(
      await browser.call(createFlag, { ...flag("csrf-origin"), headers: { origin: "https://evil.example" } }),
      403,
      csrf("Origin checking failed - https://evil.example does not match any trusted origins.")
    )
    const made = await browser.call(createFlag, flag(`csrf-ok-${Date.now()}`))
    expectReply(made, 201)
    assert.match(made.body.created_by.email, /^csrf-/, "the flag is the logged-in user's")
    // A key decides alone: a bad one is 401 whatever session comes with it, a good one needs no token.
    expectReply(await browser.call(me, { key: "phx_not-a-key" }), 401, BAD_KEY)
    expectReply(await target.call(createFlag, { ...flag(`csrf-key-${Date.now()}`), key: world.keys.ownerA }), 201)
    // A session is no personal API key.
    expectReply(await browser.call(currentKey), 404, NOT_FOUND)
  }),

  withWorld("a password change needs the current password, keeps the caller's session and ends the others", async (target, world) => {
    const { email, password, browser } = await newTeammate(target, world, "password")
    const other = await loggedIn(target, email, password)
    const fresh = `new-${password}`
    expectReply(
      await browser.call(updateMe, { body: { password: fresh } }),
      400,
      invalid("current_password", "This field is required when updating your password.", "required")
    )
    expectReply(
      await browser.call(updateMe, { body: { current_password: "wrong password", password: fresh } }),
      400,
      invalid("current_password", "Your current password is incorrect.", "incorrect_password")
    )
    expectReply(
      await browser.call(updateMe, { body: { current_password: password, password: "short" } }),
      400,
      invalid("password", "This password is too short. It must contain at least 8 characters.", "invalid")
    )
    const changed = await browser.call(updateMe, { body: { current_password: password, password: fresh } })
    expectReply(changed, 200)
    assert.equal(changed.body.email, email)
    expectReply(await browser.call(me), 200)
    expectReply(await other.call(me), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(login, { body: { email, password } }), 400, INVALID_CREDENTIALS)
    expectReply(await target.call(login, { body: { email, password: fresh } }), 200, { success: true })
  }),

  withWorld("a logged-in user accepts an invite to another organization as themself; another user's invite is refused", async (target, world) => {
    const { email, browser } = await newTeammate(target, world, "joining")
    const invited = await target.call(createInvite, {
      key: world.keys.ownerB,
      params: { organization_id: world.orgB },
      body: { target_email: email, level: 8, send_email: false }
    })
    expectReply(invited, 201)
    const invite_id = invited.body.id
    // Someone else, logged in, may not use it.
    const stranger = await newTeammate(target, world, "stranger")
    expectReply(
      await stranger.browser.call(prevalidate, { params: { invite_id } }),
      400,
      invalid(null, "This invite is intended for another email address.", "invalid_recipient")
    )
    expectReply(await browser.call(prevalidate, { params: { invite_id } }), 200)
    expectReply(await browser.call(accept, { params: { invite_id }, body: {} }, { csrf: false }), 403, csrf("CSRF token missing."))
    const joined = await browser.call(accept, { params: { invite_id }, body: {} })
    expectReply(joined, 201)
    assert.equal(joined.body.email, email)
    assert.deepEqual(joined.setCookies ?? [], [], "a logged-in user keeps their session")
    const whoAmI = await browser.call(me)
    assert.deepEqual(
      whoAmI.body.organizations.map((o: { id: string; membership_level: number }) => [o.id, o.membership_level]).sort(),
      [[world.orgA, 1], [world.orgB, 8]].sort()
    )
    assert.equal(whoAmI.body.organization.id, world.orgB, "the joined organization becomes the current one")
    expectReply(
      await target.call({ group: "invites", endpoint: "destroy" }, { key: world.keys.ownerA, params: { organization_id: world.orgA, id: stranger.inviteId } }),
      404,
      NOT_FOUND
    )
    expectReply(
      await target.call({ group: "invites", endpoint: "destroy" }, { key: world.keys.ownerB, params: { organization_id: world.orgB, id: stranger.inviteId } }),
      404,
      NOT_FOUND
    )
  }),

  withWorld("an invite to an address that already has an account asks its holder to log in", async (target, world) => {
    const { email } = await newTeammate(target, world, "existing")
    const invited = await target.call(createInvite, {
      key: world.keys.ownerB,
      params: { organization_id: world.orgB },
      body: { target_email: email, send_email: false }
    })
    expectReply(invited, 201)
    expectReply(
      await new Browser(target).call(accept, { params: { invite_id: invited.body.id }, body: { first_name: "Dup", password: "yet another secret" } }),
      400,
      envelope("validation_error", "invalid_input", `There already exists an account with email address ${email}. Please log in instead.`)
    )
  })
]
