import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Target } from "../targets/target.ts"
import { within } from "../within.ts"
import { createFlag, keysOf, listFlags, NO_EDIT_RIGHTS, patchFlag, ROLE_ACCESS, uniqueKey } from "./feature-flags-support.ts"
import { ROLES } from "./roles.ts"
import { BAD_KEY, denied, expectReply, missingScope, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"
import { accept, CSRF, createInvite, freshEmail, loggedIn, maskedEmail, prevalidate, SESSION } from "./sessions-support.ts"

const KEYS = {
  create: { group: "personalApiKeys", endpoint: "create" },
  destroy: { group: "personalApiKeys", endpoint: "destroy" },
  current: { group: "identity", endpoint: "currentKey" }
} as const
const MEMBERS = { list: { group: "members", endpoint: "list" }, destroy: { group: "members", endpoint: "destroy" } } as const
const ORGANIZATION = { group: "organizations", endpoint: "retrieve" } as const
const PROJECT = { group: "projects", endpoint: "retrieve" } as const

/** Who runs the team: a `*` key of an organization's owner, and that organization's project. */
export interface Owner {
  readonly key: string
  readonly organization: string
  readonly project: number
}

/**
 * A team's first day, over HTTP only (on the core target, the same calls in-process): the owner invites a
 * teammate, who accepts, logs in, makes a narrow key and works with it; the owner gives them one flag
 * through a role, then takes the key away. `elsewhere` is another process on the same store: the key is
 * used there too, and must be refused there within a second of being taken away.
 */
export const firstDay = async (target: Target, owner: Owner, elsewhere?: Target) => {
  const org = { organization_id: owner.organization }
  const project = { project_id: owner.project }
  const asOwner = { key: owner.key, project: owner.project }
  const granted = await createFlag(target, asOwner, { key: uniqueKey("first-day-granted"), name: "granted" })
  const other = await createFlag(target, asOwner, { key: uniqueKey("first-day-other"), name: "other" })

  // The owner invites a teammate; the id in the answer is the one the invite's e-mail carries.
  const email = freshEmail("first-day")
  const invite = await target.call(createInvite, { key: owner.key, params: org, body: { target_email: email, first_name: "Robin", level: 1, send_email: false } })
  expectReply(invite, 201)
  const invite_id = invite.body.id
  const organization = await target.call(ORGANIZATION, { key: owner.key, params: org })

  // The teammate prevalidates, accepts with a password (which logs them in too) and logs in with it.
  const invitation = { id: invite_id, target_email: maskedEmail(email), first_name: "Robin", organization_name: organization.body.name }
  expectReply(await target.call(prevalidate, { params: { invite_id } }), 200, invitation)
  const password = `pw-${randomUUID()}`
  const accepted = await target.call(accept, { params: { invite_id }, body: { first_name: "Robin", password } })
  expectReply(accepted, 201)
  assert.deepEqual([accepted.body.email, accepted.body.first_name], [email, "Robin"])
  const teammate = await loggedIn(target, email, password)
  assert.ok(teammate.cookies[SESSION] && teammate.cookies[CSRF], "log-in sets the session and CSRF cookies")

  // With that session (and its CSRF token) they make a key for flags of this project only, and use it.
  const body = { label: "first day", scopes: ["feature_flag:write"], scoped_teams: [owner.project] }
  expectReply(await teammate.call(KEYS.create, { body }, { csrf: false }), 403, denied("CSRF Failed: CSRF token missing."))
  const made = await teammate.call(KEYS.create, { body })
  expectReply(made, 201)
  assert.deepEqual([made.body.label, made.body.scopes, made.body.scoped_teams, made.body.scoped_organizations], ["first day", ["feature_flag:write"], [owner.project], []])
  const key: string = made.body.value
  const asTeammate = { key, project: owner.project }
  assert.deepEqual(keysOf(await listFlags(target, asTeammate, { search: granted.key })), [granted.key])
  expectReply(await target.call(PROJECT, { key, params: project }), 403, missingScope("project:read"))

  // The owner makes a can-only-view role, adds the teammate (found among the members) and grants it one flag.
  const role = await target.call(ROLES.create, { key: owner.key, params: org, body: { name: `Reviewers ${randomUUID().slice(0, 8)}`, feature_flags_access_level: 21 } })
  expectReply(role, 201)
  assert.deepEqual([role.body.feature_flags_access_level, role.body.members], [21, []])
  const members = await target.call(MEMBERS.list, { key: owner.key, params: org, query: { limit: 1000 } })
  expectReply(members, 200)
  const member = members.body.results.find((found: { user: { email: string } }) => found.user.email === email)
  assert.equal(member?.level, 1, "the teammate is a member at the invite's level")
  const joined = await target.call(ROLES.addMembership, { key: owner.key, params: { ...org, role_id: role.body.id }, body: { user_uuid: member.user.uuid } })
  expectReply(joined, 201)
  assert.deepEqual([joined.body.role_id, joined.body.user.email], [role.body.id, email])
  const grant = await target.call(ROLE_ACCESS.create, { key: owner.key, params: { ...project, feature_flag_id: granted.id }, body: { role_id: role.body.id } })
  expectReply(grant, 201)
  assert.deepEqual([grant.body.feature_flag.id, grant.body.role.id], [granted.id, role.body.id])

  // A member whose only role can only view edits the flag granted to it, and no other.
  const edited = await patchFlag(target, asTeammate, granted.id, { name: "edited on day one" })
  expectReply(edited, 200)
  assert.deepEqual([edited.body.name, edited.body.last_modified_by.email], ["edited on day one", email])
  expectReply(await patchFlag(target, asTeammate, other.id, { name: "not theirs" }), 403, NO_EDIT_RIGHTS)
  if (elsewhere !== undefined) assert.deepEqual(keysOf(await listFlags(elsewhere, asTeammate, { search: granted.key })), [granted.key])

  // PostHog keeps a personal API key its user's alone: the owner can neither see nor revoke it (404).
  // What an owner can do is remove the member, which takes the organization from the key at once; the
  // key itself still authenticates (it is the user's) until its holder revokes it, and then it is 401.
  const id = made.body.id
  expectReply(await target.call(KEYS.destroy, { key: owner.key, params: { id } }), 404, NOT_FOUND)
  expectReply(await target.call(MEMBERS.destroy, { key: owner.key, params: { ...org, user__uuid: member.user.uuid } }), 204)
  expectReply(await listFlags(target, asTeammate, {}), 404, NOT_FOUND)
  if (elsewhere !== undefined) await within(async () => (await listFlags(elsewhere, asTeammate, {})).status === 404)
  expectReply(await target.call(KEYS.current, { key }), 200)
  expectReply(await teammate.call(KEYS.destroy, { params: { id } }), 204)
  expectReply(await target.call(KEYS.current, { key }), 401, BAD_KEY)
  expectReply(await listFlags(target, asTeammate, {}), 401, BAD_KEY)
  if (elsewhere !== undefined) await within(async () => (await elsewhere.call(KEYS.current, { key })).status === 401)
}

export const firstDayScenarios: ReadonlyArray<Scenario> = [
  {
    // The operator's fixtures only name the owner; the scenario leaves a user behind, so it runs on harness-made targets only.
    name: "first day: an invitee accepts, logs in, makes a scoped key, edits the one flag a role grants them, and the key is taken away",
    needs: ["world"],
    run: async (context) => {
      const world = needWorld(context)
      await firstDay(context.target, { key: world.keys.ownerA, organization: world.orgA, project: world.projectA })
    }
  }
]
