import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import { lines, member, type Person, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; the people are made once, on first use.
const connect = serverSession({ email: "owner@example.com", organizationName: "Home" }, (s) =>
  Effect.map(member(s.organization, "member@example.com", 1), (made) => ({ member: made })))
type Session = Effect.Success<typeof connect>

const as = (s: Session, who: Person, ...args: ReadonlyArray<string>) => runInProcess([...args, "--url", s.url, "--key", who.key])
const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow orgs and roles", (it) => {
  it.effect("orgs create founds an organization the caller owns; list, rename and delete --yes follow", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const created = yield* as(s, s.member, "orgs", "create", "Side project", "--json")
      assert.strictEqual(created.stderr, "")
      const org = jsonOf(created.stdout)
      assert.deepStrictEqual([org.name, org.slug, org.membership_level], ["Side project", "side-project", 15])

      const table = yield* as(s, s.member, "orgs", "list")
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+NAME\s+SLUG\s+MEMBERSHIP_LEVEL\s+CREATED_AT$/)
      assert.deepStrictEqual(rows.slice(0, 2).map((row) => row.split(/\s{2,}/).slice(1, 4)), [
        ["Home", "home", "1"],
        ["Side project", "side-project", "15"]
      ])
      assert.strictEqual(rows[2], "2 in all")

      const renamed = yield* as(s, s.member, "orgs", "rename", org.id, "Main project")
      assert.match(renamed.stdout, /^name\s+Main project$/m)
      assert.match(renamed.stdout, /^slug\s+side-project$/m)

      const unconfirmed = yield* as(s, s.member, "orgs", "delete", org.id)
      assert.strictEqual(unconfirmed.code, 1)
      assert.deepStrictEqual(lines(unconfirmed.stderr), [
        `error: deleting organization ${org.id} deletes its projects, flags, members, roles and invites for good; pass --yes to confirm`
      ])
      const deleted = yield* as(s, s.member, "orgs", "delete", org.id, "--yes", "--json")
      assert.deepStrictEqual(jsonOf(deleted.stdout), { id: org.id, deleted: true })
      const gone = yield* as(s, s.member, "orgs", "rename", org.id, "Again")
      assert.deepStrictEqual(lines(gone.stderr), ["error: Not found."])
    }))

  it.effect("orgs refuses what the server refuses, in its words", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const blank = yield* as(s, s.owner, "orgs", "create", "  ")
      assert.deepStrictEqual(lines(blank.stderr), ["error: This field may not be blank. (field name)"])
      const long = yield* as(s, s.owner, "orgs", "create", "n".repeat(65))
      assert.deepStrictEqual(lines(long.stderr), ["error: Ensure this field has no more than 64 characters. (field name)"])
      const member = yield* as(s, s.member, "orgs", "rename", s.organization, "Mine now")
      assert.deepStrictEqual(lines(member.stderr), ["error: Your organization access level is insufficient."])
      const notOwner = yield* as(s, s.member, "orgs", "delete", "@current", "--yes")
      assert.deepStrictEqual(lines(notOwner.stderr), ["error: Your organization access level is insufficient."])
    }))

  it.effect("roles create, list, rename, members, add-member and remove-member by e-mail or uuid, delete", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const role = jsonOf((yield* as(s, s.owner, "roles", "create", "Reviewers", "--feature-flags-access-level", "21", "--json")).stdout)
      assert.deepStrictEqual([role.name, role.feature_flags_access_level, role.members, role.created_by.email], [
        "Reviewers", 21, [], "owner@example.com"
      ])

      const added = yield* as(s, s.owner, "roles", "add-member", role.id, "MEMBER@example.com")
      assert.strictEqual(added.stderr, "")
      assert.match(added.stdout, new RegExp(`^uuid\\s+${s.member.uuid}$`, "m"))
      const byUuid = yield* as(s, s.owner, "roles", "add-member", role.id, s.owner.uuid, "--json")
      assert.strictEqual(jsonOf(byUuid.stdout).user.email, "owner@example.com")
      const again = yield* as(s, s.owner, "roles", "add-member", role.id, s.member.uuid)
      assert.deepStrictEqual(lines(again.stderr), ["error: User is already part of the role."])
      const stranger = yield* as(s, s.owner, "roles", "add-member", role.id, "nobody@example.com")
      assert.deepStrictEqual(lines(stranger.stderr), ["error: no member of the organization has the address nobody@example.com"])

      const listed = yield* as(s, s.member, "roles", "list")
      const [header, row, footer] = lines(listed.stdout)
      assert.match(header!, /^ID\s+NAME\s+FLAGS\s+MEMBERS\s+CREATED_AT$/)
      assert.match(row!, new RegExp(`^${role.id}\\s+Reviewers\\s+21 can only view\\s+2\\s+\\S+Z$`))
      assert.strictEqual(footer, "1 in all")

      const roster = yield* as(s, s.member, "roles", "members", role.id)
      const [rosterHeader, ...rosterRows] = lines(roster.stdout)
      assert.match(rosterHeader!, /^ID\s+UUID\s+EMAIL\s+LEVEL\s+JOINED_AT$/)
      assert.deepStrictEqual(rosterRows.slice(0, -1).map((line) => line.split(/\s{2,}/).slice(1, 4)), [
        [s.member.uuid, "member@example.com", "1"],
        [s.owner.uuid, "owner@example.com", "15"]
      ])
      assert.strictEqual(rosterRows.at(-1), "2 in all")

      const renamed = yield* as(s, s.owner, "roles", "rename", role.id, "Flag reviewers")
      assert.match(renamed.stdout, /^name\s+Flag reviewers$/m)
      const denied = yield* as(s, s.member, "roles", "rename", role.id, "Mine")
      assert.deepStrictEqual(lines(denied.stderr), ["error: You need to have admin level or higher."])

      const removed = yield* as(s, s.owner, "roles", "remove-member", role.id, "member@EXAMPLE.com")
      assert.deepStrictEqual(lines(removed.stdout), [`Removed member@example.com from role ${role.id}.`])
      const notThere = yield* as(s, s.owner, "roles", "remove-member", role.id, "member@example.com")
      assert.deepStrictEqual(lines(notThere.stderr), [`error: member@example.com is not a member of role ${role.id}`])

      const deleted = yield* as(s, s.owner, "roles", "delete", role.id)
      assert.deepStrictEqual(lines(deleted.stdout), [`Deleted role ${role.id}, its memberships and its flags' grants.`])
      const empty = yield* as(s, s.owner, "roles", "list", "--json")
      assert.deepStrictEqual(jsonOf(empty.stdout), { count: 0, next: null, previous: null, results: [] })
    }))

  it.effect("end to end (child process): roles create --json through the real executable, with HEDGEROW_URL and HEDGEROW_API_KEY", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.owner.key }
      const created = yield* runChild(["roles", "create", "Operators", "--org", s.organization, "--json"], env)
      assert.strictEqual(created.stderr, "")
      assert.strictEqual(created.code, 0)
      const role = jsonOf(created.stdout)
      assert.deepStrictEqual([role.name, role.feature_flags_access_level, role.is_default], ["Operators", 37, false])
      const taken = yield* runChild(["roles", "create", "OPERATORS"], env)
      assert.strictEqual(taken.code, 1)
      assert.deepStrictEqual(lines(taken.stderr), ["error: There is already a role with this name. (field name)"])
    }))
})
