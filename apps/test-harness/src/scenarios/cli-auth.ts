import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { newTeammate } from "./sessions-support.ts"
import { BAD_KEY, denied, expectReply, invalid, NOT_AUTHENTICATED, NOT_FOUND, needWorld, type Scenario } from "./scenario.ts"

const deviceCode = { group: "cliAuth", endpoint: "deviceCode" } as const
const poll = { group: "cliAuth", endpoint: "poll" } as const
const authorize = { group: "cliAuthApproval", endpoint: "authorize" } as const
const me = { group: "identity", endpoint: "me" } as const
const currentKey = { group: "identity", endpoint: "currentKey" } as const

const INVALID_CODE = invalid("user_code", "User code not found or expired", "invalid_code")
const ALREADY_AUTHORIZED = invalid("user_code", "This code has already been authorized", "already_authorized")
const EXPIRED_TOKEN = invalid(null, "Device code expired", "expired_token")
const SLOW_DOWN = invalid(null, "Polling too fast: wait 5 seconds between polls.", "slow_down")
const KEY_REFUSED = denied("Only a logged-in browser session can authorize the CLI, never a personal API key.")
const csrf = (reason: string) => denied(`CSRF Failed: ${reason}`)
/** PostHog's label for the flow's key: `CLI - <project> - <YYYY-MM-DD HH:MM>`. */
const LABEL = /^CLI - .+ - \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/

const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context) => run(context.target, needWorld(context))
})

/** A new device authorization, as the CLI starts one. */
const started = async (target: Target) => {
  const reply = await target.call(deviceCode, {})
  expectReply(reply, 200)
  return reply.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string }
}

export const cliAuthScenarios: ReadonlyArray<Scenario> = [
  withWorld("cli-auth: a device code, approved by a logged-in browser, gives one poll a * key of the approver's; the codes are then spent", async (target, world) => {
    const { email, browser } = await newTeammate(target, world, "cli")
    const reply = await target.call(deviceCode, {})
    expectReply(reply, 200)
    const grant = reply.body
    assert.deepEqual(Object.keys(grant), ["device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval"])
    assert.match(grant.user_code, /^[A-Z]{4}-[0-9]{4}$/)
    assert.match(grant.device_code, /^[A-Za-z0-9_-]{43}$/)
    assert.ok(grant.verification_uri.endsWith("/cli/authorize"), grant.verification_uri)
    assert.equal(grant.verification_uri_complete, `${grant.verification_uri}?code=${grant.user_code}`)
    assert.deepEqual([grant.expires_in, grant.interval], [600, 5])

    const { device_code } = grant
    expectReply(await target.call(poll, { body: { device_code } }), 202, { status: "pending" })
    // RFC 8628: a poll sooner than the interval after the last is told to slow down, and changes nothing.
    expectReply(await target.call(poll, { body: { device_code } }), 400, SLOW_DOWN)

    // A code typed by hand: lower case, no dash.
    const typed = grant.user_code.replace("-", "").toLowerCase()
    const approved = await browser.call(authorize, { body: { user_code: typed, project_id: world.projectA } })
    expectReply(approved, 200)
    assert.deepEqual(Object.keys(approved.body), ["status", "label"])
    assert.equal(approved.body.status, "success")
    assert.match(approved.body.label, LABEL)
    assert.ok([...approved.body.label].length <= 40)
    expectReply(await browser.call(authorize, { body: { user_code: grant.user_code, project_id: world.projectA } }), 400, ALREADY_AUTHORIZED)

    const taken = await target.call(poll, { body: { device_code } })
    expectReply(taken, 200, {
      status: "authorized",
      personal_api_key: taken.body.personal_api_key,
      label: approved.body.label,
      project_id: String(world.projectA)
    })
    assert.match(taken.body.personal_api_key, /^phx_[0-9A-Za-z]{43}$/)
    const key = taken.body.personal_api_key
    const who = await target.call(me, { key })
    expectReply(who, 200)
    assert.equal(who.body.email, email)
    const made = await target.call(currentKey, { key })
    expectReply(made, 200)
    assert.deepEqual([made.body.label, made.body.scopes, made.body.scoped_teams, made.body.scoped_organizations], [approved.body.label, ["*"], [], []])

    // Single use: the key was handed over once; the user code names nothing any more.
    expectReply(await target.call(poll, { body: { device_code } }), 400, EXPIRED_TOKEN)
    expectReply(await browser.call(authorize, { body: { user_code: grant.user_code, project_id: world.projectA } }), 400, INVALID_CODE)
  }),

  withWorld("cli-auth authorize: a session only (401 without, 403 for any key or a missing CSRF token), 404 for a project not the caller's, 400 for each rule", async (target, world) => {
    const { browser } = await newTeammate(target, world, "cli-refusals")
    const { user_code, device_code } = await started(target)
    const body = { user_code, project_id: world.projectA }
    expectReply(await target.call(authorize, { body }), 401, NOT_AUTHENTICATED)
    expectReply(await browser.call(authorize, { body, key: "phx_not-a-key" }), 401, BAD_KEY)
    // A key never mints a key: not even the owner's `*` key.
    expectReply(await target.call(authorize, { body, key: world.keys.ownerA }), 403, KEY_REFUSED)
    expectReply(await browser.call(authorize, { body }, { csrf: false }), 403, csrf("CSRF token missing."))
    expectReply(
      await browser.call(authorize, { body, headers: { origin: "https://evil.example" } }),
      403,
      csrf("Origin checking failed - https://evil.example does not match any trusted origins.")
    )
    // Another organization's project, and one that does not exist, are alike.
    for (const project_id of [world.projectB, 2_000_000_000, 0, -1, 99_999_999_999]) {
      expectReply(await browser.call(authorize, { body: { user_code, project_id } }), 404, NOT_FOUND)
    }
    expectReply(await browser.call(authorize, { body: {} }), 400, invalid("user_code", "This field is required.", "required"))
    expectReply(await browser.call(authorize, { body: { user_code: "  ", project_id: world.projectA } }), 400, invalid("user_code", "This field may not be blank.", "blank"))
    expectReply(
      await browser.call(authorize, { body: { user_code: "ABCD-12345", project_id: world.projectA } }),
      400,
      invalid("user_code", "Ensure this field has no more than 9 characters.", "max_length")
    )
    expectReply(await browser.call(authorize, { body: { user_code: 1234, project_id: world.projectA } }), 400, invalid("user_code", "Not a valid string."))
    expectReply(await browser.call(authorize, { body: { user_code } }), 400, invalid("project_id", "This field is required.", "required"))
    expectReply(await browser.call(authorize, { body: { user_code, project_id: "one" } }), 400, invalid("project_id", "A valid integer is required."))
    expectReply(await browser.call(authorize, { body: { user_code, project_id: 1.5 } }), 400, invalid("project_id", "A valid integer is required."))
    for (const wrong of ["ZZZZ-000", "1234-ABCD", "AB CD-12"]) {
      expectReply(await browser.call(authorize, { body: { user_code: wrong, project_id: world.projectA } }), 400, INVALID_CODE)
    }
    // None of it approved anything.
    expectReply(await target.call(poll, { body: { device_code } }), 202, { status: "pending" })
  }),

  withWorld("cli-auth authorize: ten wrong user codes in ten minutes, and the user's next tries are throttled, the right code included", async (target, world) => {
    const { browser } = await newTeammate(target, world, "cli-guesser")
    const { user_code, device_code } = await started(target)
    const wrong = user_code === "AAAA-0000" ? "AAAA-0001" : "AAAA-0000"
    for (let i = 0; i < 10; i++) {
      expectReply(await browser.call(authorize, { body: { user_code: wrong, project_id: world.projectA } }), 400, INVALID_CODE)
    }
    const throttled = await browser.call(authorize, { body: { user_code, project_id: world.projectA } })
    assert.equal(throttled.status, 429)
    assert.equal(throttled.body.code, "throttled")
    const seconds = /^Request was throttled\. Expected available in (\d+) seconds\.$/.exec(throttled.body.detail)?.[1]
    assert.ok(seconds !== undefined && Number(seconds) <= 600, throttled.body.detail)
    assert.equal(throttled.headers?.["retry-after"], seconds)
    expectReply(await target.call(poll, { body: { device_code } }), 202, { status: "pending" })
    // Another user is not held back by this one's guesses.
    const other = await newTeammate(target, world, "cli-other")
    expectReply(await other.browser.call(authorize, { body: { user_code, project_id: world.projectA } }), 200)
  }),

  withWorld("cli-auth poll: a device code is required; an unknown, malformed or huge one is expired_token", async (target) => {
    expectReply(await target.call(poll, { body: {} }), 400, invalid("device_code", "This field is required.", "required"))
    expectReply(await target.call(poll, { body: { device_code: " " } }), 400, invalid("device_code", "This field may not be blank.", "blank"))
    expectReply(await target.call(poll, { body: { device_code: 5 } }), 400, invalid("device_code", "Not a valid string."))
    expectReply(await target.call(poll, { body: { device_code: null } }), 400, invalid("device_code", "This field may not be null.", "null"))
    for (const device_code of ["not-a-code", "x".repeat(200_000), "\u00e9\ud83d\ude00"]) {
      expectReply(await target.call(poll, { body: { device_code } }), 400, EXPIRED_TOKEN)
    }
    // The user code is not the device code: it never polls.
    const { user_code } = await started(target)
    expectReply(await target.call(poll, { body: { device_code: user_code } }), 400, EXPIRED_TOKEN)
  })
]
