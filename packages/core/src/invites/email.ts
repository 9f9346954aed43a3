import type { MailMessage } from "../mail/mailer.ts"
import { inviteAcceptUrl, type Site } from "../shared/site.ts"
import type { MembershipLevel } from "../organizations/model.ts"
import type { User } from "../users/model.ts"
import { INVITE_DAYS_VALIDITY, type InviteRecord } from "./model.ts"

const ROLE: Record<MembershipLevel, string> = { 1: "a member", 8: "an administrator", 15: "an owner" }

/** Names go into a header line: no line breaks, no runs of spaces. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

const nameOf = (user: User | null) =>
  user === null ? "An administrator" : oneLine(`${user.first_name} ${user.last_name}`) || user.email

/**
 * The invitation e-mail: who invites whom to which organization, at what level, until when, and how to
 * accept: the page at the site's accept link, or the CLI against the site.
 */
export const inviteEmail = (invite: InviteRecord, organization: string, inviter: User | null, site: Site): MailMessage => {
  const who = nameOf(inviter)
  const org = oneLine(organization)
  const greeting = invite.first_name.trim() === "" ? "Hi," : `Hi ${oneLine(invite.first_name)},`
  const by = inviter === null ? who : `${who} (${inviter.email})`
  const note = invite.message === null || invite.message.trim() === "" ? [] : ["Their message:", "", invite.message, ""]
  return {
    to: invite.target_email,
    subject: `${who} invited you to join ${org} on Hedgerow`,
    text: [
      greeting,
      "",
      `${by} invited you to join the organization "${org}" on Hedgerow as ${ROLE[invite.level]}.`,
      "",
      ...note,
      `Accept it at ${inviteAcceptUrl(site, invite.id)}`,
      "or from a terminal:",
      "",
      `  npx hedgerow invites accept ${invite.id} --url ${site.url}`,
      "",
      `Your invite id is ${invite.id}. It is valid for ${INVITE_DAYS_VALIDITY} days.`,
      ""
    ].join("\n")
  }
}
