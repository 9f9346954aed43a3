import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { HARNESS_MAIL_FROM, type Network } from "../network/index.ts"
import type { Target } from "../targets/target.ts"
import type { Discovered } from "../world.ts"
import { expectReply, type Scenario, withNetwork } from "./scenario.ts"

/**
 * Invite e-mail through the SMTP server the harness configures its targets with: what the API answers
 * about the attempt, and what actually arrives.
 */

const create = { group: "invites", endpoint: "create" } as const
const bulk = { group: "invites", endpoint: "bulk" } as const
const list = { group: "invites", endpoint: "list" } as const

/** An address no other scenario or run uses; its local part names its role in the scenario. */
const freshAddress = (role: string) => `${role}.${randomUUID().slice(0, 8)}@invitee.example`

const mailTo = (network: Network, address: string) => network.mailbox().filter((mail) => mail.to.includes(address))

/**
 * Delivery runs after the answer, so "nothing was sent" is read once a later e-mail has arrived: a
 * message for `quiet` would have been handed to the mail server before that one.
 */
const assertNothingSentTo = async (target: Target, primary: Discovered, network: Network, quiet: ReadonlyArray<string>) => {
  const later = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { target_email: freshAddress("later") } })
  expectReply(later, 201)
  await network.waitForMail(later.body.target_email)
  for (const address of quiet) assert.deepEqual(mailTo(network, address), [], `no e-mail to ${address}`)
}

/** The organization's name and the caller's e-mail, as the invitation names them. */
const inviterOf = async (target: Target, primary: Discovered) => {
  const organization = await target.call({ group: "organizations", endpoint: "retrieve" }, { key: primary.key, params: { organization_id: primary.organization } })
  expectReply(organization, 200)
  const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
  expectReply(me, 200)
  return { organization: organization.body.name as string, email: me.body.email as string }
}

export const inviteMailScenarios: ReadonlyArray<Scenario> = [
  withNetwork("an invite with send_email left at its default answers emailing_attempt_made true and the invitee gets the e-mail", async (target, primary, network) => {
    const local = `Grace.${randomUUID().slice(0, 8)}`
    const reply = await target.call(create, {
      key: primary.key,
      params: { organization_id: primary.organization },
      body: { target_email: `${local}@Invitee.EXAMPLE`, first_name: "Grace", message: "See you on Monday." }
    })
    expectReply(reply, 201)
    const invite = reply.body
    // The domain part is lower-cased before anything is stored or sent.
    assert.deepEqual([invite.target_email, invite.emailing_attempt_made], [`${local}@invitee.example`, true])

    const mail = await network.waitForMail(invite.target_email)
    const { organization, email } = await inviterOf(target, primary)
    assert.deepEqual([mail.from, mail.to], [HARNESS_MAIL_FROM.address, [invite.target_email]])
    assert.equal(mail.headers.get("from"), `${HARNESS_MAIL_FROM.name} <${HARNESS_MAIL_FROM.address}>`)
    assert.equal(mail.headers.get("to"), invite.target_email)
    const subject = mail.headers.get("subject") ?? ""
    assert.ok(subject.endsWith(` invited you to join ${organization} on Hedgerow`), subject)
    assert.match(mail.text, /^Hi Grace,\n/)
    assert.ok(mail.text.includes(`(${email}) invited you to join the organization "${organization}" on Hedgerow as a member.`), mail.text)
    assert.ok(mail.text.includes("See you on Monday."), mail.text)
    assert.ok(mail.text.includes(`Your invite id is ${invite.id}. It is valid for 3 days.`), mail.text)
    // How to accept: the site's accept page, or the CLI against the site.
    assert.match(mail.text, new RegExp(`\\nAccept it at https?://\\S+/signup/${invite.id}\\n`))
    assert.match(mail.text, new RegExp(`\\n {2}npx hedgerow invites accept ${invite.id} --url https?://\\S+\\n`))
    assert.equal(mailTo(network, invite.target_email).length, 1)
  }),
  withNetwork("an invite with send_email false answers emailing_attempt_made false and no e-mail is sent", async (target, primary, network) => {
    const quiet = freshAddress("quiet")
    const reply = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { target_email: quiet, send_email: false } })
    expectReply(reply, 201)
    assert.equal(reply.body.emailing_attempt_made, false)
    await assertNothingSentTo(target, primary, network, [quiet])
  }),
  withNetwork("bulk invites: every invitee gets exactly one e-mail at its own level, and an item with send_email false gets none", async (target, primary, network) => {
    const [quiet, member, admin] = [freshAddress("bulk-quiet"), freshAddress("bulk-member"), freshAddress("bulk-admin")]
    const params = { organization_id: primary.organization }
    const body = [{ target_email: quiet, send_email: false }, { target_email: member }, { target_email: admin, level: 8 }]
    expectReply(await target.call(bulk, { key: primary.key, params, body }), 200, null)

    const [toMember, toAdmin] = await Promise.all([network.waitForMail(member), network.waitForMail(admin)])
    assert.match(toMember!.text, / on Hedgerow as a member\.\n/)
    assert.match(toAdmin!.text, / on Hedgerow as an administrator\.\n/)
    const listed = await target.call(list, { key: primary.key, params, query: { limit: 1000 } })
    expectReply(listed, 200)
    const attempted = Object.fromEntries(
      listed.body.results
        .filter((invite: { target_email: string }) => [quiet, member, admin].includes(invite.target_email))
        .map((invite: { target_email: string; emailing_attempt_made: boolean }) => [invite.target_email, invite.emailing_attempt_made])
    )
    assert.deepEqual(attempted, { [quiet]: false, [member]: true, [admin]: true })
    await assertNothingSentTo(target, primary, network, [quiet])
    assert.deepEqual([mailTo(network, member).length, mailTo(network, admin).length], [1, 1])
  })
]
