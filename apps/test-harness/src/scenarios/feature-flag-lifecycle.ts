import assert from "node:assert/strict"
import {
  conditionGroup,
  conflict,
  createFlag,
  FLAGS,
  flagProperty,
  getFlag,
  HARD_DELETE,
  keysOf,
  listFlags,
  patchFlag,
  postFlag,
  projectOf,
  rolledOut,
  uniqueKey
} from "./feature-flags-support.ts"
import { expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

const KEY_TAKEN = invalid("key", "There is already a feature flag with this key.", "unique")

/** Soft delete, tombstones, restore, versions, concurrency and the refused hard delete. */
export const featureFlagLifecycleScenarios: ReadonlyArray<Scenario> = [
  {
    name: "soft delete keeps the flag readable by id, marks it DELETED and hides it from the list",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("soft"), filters: rolledOut(50) })
      const deleted = await patchFlag(target, at, flag.id, { deleted: true })
      expectReply(deleted, 200)
      assert.deepEqual([deleted.body.deleted, deleted.body.key, deleted.body.status, deleted.body.version], [true, flag.key, "DELETED", 2])
      const read = await getFlag(target, at, flag.id)
      expectReply(read, 200, deleted.body)
      assert.equal((await listFlags(target, at, { search: flag.key })).body.count, 0)
      // A soft-deleted flag can still be changed by id.
      const renamed = await patchFlag(target, at, flag.id, { name: "still editable" })
      expectReply(renamed, 200)
      assert.deepEqual([renamed.body.name, renamed.body.deleted], ["still editable", true])
    }
  },
  {
    name: "reusing a soft-deleted flag's key renames the deleted flag to the tombstone <key>:deleted:<id>",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("reuse")
      const old = await createFlag(target, at, { key })
      expectReply(await patchFlag(target, at, old.id, { deleted: true }), 200)
      const fresh = await createFlag(target, at, { key, name: "second life" })
      assert.notEqual(fresh.id, old.id)
      assert.equal(fresh.key, key)
      const tombstone = await getFlag(target, at, old.id)
      expectReply(tombstone, 200)
      assert.deepEqual([tombstone.body.key, tombstone.body.deleted], [`${key}:deleted:${old.id}`, true])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: key })), [key])
    }
  },
  {
    name: "a key held by deleted flags again and again goes each time to the new flag, also one that depends on another flag",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("reheld")
      const other = await createFlag(target, at, { key: uniqueKey("reheld-target") })
      const dependent = { groups: [conditionGroup([flagProperty(String(other.id))])] }
      const first = await createFlag(target, at, { key })
      expectReply(await patchFlag(target, at, first.id, { deleted: true }), 200)
      const second = await createFlag(target, at, { key, filters: dependent })
      expectReply(await patchFlag(target, at, second.id, { deleted: true }), 200)
      const third = await createFlag(target, at, { key, filters: dependent })
      assert.deepEqual([third.key, third.filters], [key, dependent])
      for (const old of [first, second]) {
        const tombstone = await getFlag(target, at, old.id)
        assert.deepEqual([tombstone.body.key, tombstone.body.deleted], [`${key}:deleted:${old.id}`, true])
      }
      // While the third holds it, the key is refused to a create, with or without a dependency.
      for (const body of [{ key }, { key, filters: dependent }]) {
        const reply = await postFlag(target, at, body)
        expectReply(reply, 400, KEY_TAKEN)
      }
      assert.deepEqual(keysOf(await listFlags(target, at, { search: key })), [key])
    }
  },
  {
    name: "flag keys are unique case-sensitively: a key differing from a live flag's only in case is another flag",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const lower = await createFlag(target, at, { key: uniqueKey("cased") })
      const upper = await createFlag(target, at, { key: lower.key.toUpperCase() })
      assert.notEqual(upper.id, lower.id)
      assert.equal(upper.key, lower.key.toUpperCase())
      const again = await postFlag(target, at, { key: upper.key })
      expectReply(again, 400, KEY_TAKEN)
    }
  },
  {
    name: "a flag's key and name are trimmed as DRF's CharField trims them, before the key's rules",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("trimmed")
      const flag = await createFlag(target, at, { key: `  ${key}\t`, name: "  Spaced name \n" })
      assert.deepEqual([flag.key, flag.name], [key, "Spaced name"])
      expectReply(await postFlag(target, at, { key: ` ${key}` }), 400, KEY_TAKEN)
      expectReply(await postFlag(target, at, { key: "   " }), 400, invalid("key", "This field may not be blank.", "blank"))
      const renamed = await patchFlag(target, at, flag.id, { key: ` ${key}-renamed `, name: " Renamed " })
      expectReply(renamed, 200)
      assert.deepEqual([renamed.body.key, renamed.body.name], [`${key}-renamed`, "Renamed"])
    }
  },
  {
    name: "a flag's key and tags are trimmed of Python's whitespace, not JavaScript's",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("py-strip")
      // U+001C..U+001F and U+0085 are whitespace to Python's str.strip(); U+FEFF is not.
      const flag = await createFlag(target, at, { key: `\u001f${key}\u0085`, tags: ["\u001cBeta\u0085", "\ufeffx"] })
      assert.deepEqual([flag.key, flag.tags], [key, ["beta", "\ufeffx"]])
      expectReply(await postFlag(target, at, { key: `\ufeff${key}-2` }), 400,
        invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key"))
      expectReply(await postFlag(target, at, { key: "\u001c\u001d\u0085" }), 400, invalid("key", "This field may not be blank.", "blank"))
      // The same key with spaces around it is no change: no new version.
      const same = await patchFlag(target, at, flag.id, { key: ` ${key}\u001e` })
      expectReply(same, 200)
      assert.deepEqual([same.body.key, same.body.version], [key, flag.version])
    }
  },
  {
    name: "PATCH deleted:false restores a flag, unless its key was taken meanwhile",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const restorable = await createFlag(target, at, { key: uniqueKey("restore") })
      expectReply(await patchFlag(target, at, restorable.id, { deleted: true }), 200)
      const restored = await patchFlag(target, at, restorable.id, { deleted: false })
      expectReply(restored, 200)
      assert.deepEqual([restored.body.deleted, restored.body.key, restored.body.status], [false, restorable.key, "ACTIVE"])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: restorable.key })), [restorable.key])

      // Keys are unique among live flags only, so another flag may take a deleted flag's key.
      const contested = await createFlag(target, at, { key: uniqueKey("contested") })
      expectReply(await patchFlag(target, at, contested.id, { deleted: true }), 200)
      const taker = await createFlag(target, at, { key: uniqueKey("taker") })
      const took = await patchFlag(target, at, taker.id, { key: contested.key })
      expectReply(took, 200)
      expectReply(await patchFlag(target, at, contested.id, { deleted: false }), 400, KEY_TAKEN)
      const still = await getFlag(target, at, contested.id)
      assert.equal(still.body.deleted, true)
    }
  },
  {
    name: "a flag PATCH carrying a stale version is 409 with PostHog's message and changes nothing",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const flag = await createFlag(target, at, { key: uniqueKey("version"), name: "v1" })
      const current = await patchFlag(target, at, flag.id, { name: "v2", version: 1 })
      expectReply(current, 200)
      assert.equal(current.body.version, 2)
      expectReply(await patchFlag(target, at, flag.id, { name: "lost update", version: 1 }), 409, conflict(me.body.email))
      expectReply(await patchFlag(target, at, flag.id, { deleted: true, version: 7 }), 409, conflict(me.body.email))
      expectReply(await getFlag(target, at, flag.id), 200, current.body)
      const activity = await target.call(FLAGS.activity, { key: at.key, params: { project_id: at.project, id: flag.id } })
      assert.equal(activity.body.total_count, 2, "a refused PATCH writes no activity entry")
      const next = await patchFlag(target, at, flag.id, { name: "v3", version: 2 })
      expectReply(next, 200)
      assert.deepEqual([next.body.name, next.body.version], ["v3", 3])
    }
  },
  {
    name: "concurrent flag PATCHes carrying the same version: exactly one succeeds, the others get 409",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const flag = await createFlag(target, at, { key: uniqueKey("race-patch") })
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) => patchFlag(target, at, flag.id, { name: `writer ${i}`, version: 1 }))
      )
      const winners = replies.filter((reply) => reply.status === 200)
      assert.equal(winners.length, 1, `statuses: ${replies.map((r) => r.status).join(", ")}`)
      for (const reply of replies.filter((r) => r.status !== 200)) expectReply(reply, 409, conflict(me.body.email))
      const read = await getFlag(target, at, flag.id)
      assert.deepEqual([read.body.version, read.body.name], [2, winners[0]!.body.name])
    }
  },
  {
    name: "concurrent flag creates with the same key: exactly one 201, the others 400 unique",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("race-create")
      const replies = await Promise.all(
        Array.from({ length: 6 }, () => postFlag(target, at, { key }))
      )
      assert.equal(replies.filter((reply) => reply.status === 201).length, 1, `statuses: ${replies.map((r) => r.status).join(", ")}`)
      for (const reply of replies.filter((r) => r.status !== 201)) expectReply(reply, 400, KEY_TAKEN)
      assert.equal((await listFlags(target, at, { search: key })).body.count, 1)
    }
  },
  {
    name: "a refused create leaves no flag and no activity entry behind, and its key stays free",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("no-trace")
      const bad = { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants: [{ key: "a", rollout_percentage: 10 }] } }
      expectReply(await postFlag(target, at, { key, filters: bad }), 400)
      assert.equal((await listFlags(target, at, { search: key })).body.count, 0)
      const activity = await target.call(FLAGS.projectActivity, { key: at.key, params: { project_id: at.project }, query: { limit: 50 } })
      expectReply(activity, 200)
      assert.ok(activity.body.results.every((entry: { detail: { name: string } }) => entry.detail.name !== key))
      const flag = await createFlag(target, at, { key })
      assert.equal(flag.key, key)
    }
  },
  {
    name: "DELETE of a flag is 405 in the usual error envelope, for any id, and deletes nothing",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("hard") })
      for (const id of [flag.id, 999999, "abc", "2147483648"]) {
        expectReply(await target.call(FLAGS.destroy, { key: at.key, params: { project_id: at.project, id } }), 405, HARD_DELETE)
      }
      expectReply(await getFlag(target, at, flag.id), 200, flag)
    }
  },
  {
    name: "DELETE of a flag checks authentication, scope and the project before refusing",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flag = await createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key: uniqueKey("hard-auth") })
      const params = { project_id: world.projectA, id: flag.id }
      expectReply(await target.call(FLAGS.destroy, { params }), 401, NOT_AUTHENTICATED)
      expectReply(await target.call(FLAGS.destroy, { key: world.keys.projectReadA, params }), 403, missingScope("feature_flag:write"))
      expectReply(await target.call(FLAGS.destroy, { key: world.keys.flagReadA, params }), 403, missingScope("feature_flag:write"))
      for (const project_id of [world.projectB, 999999, "abc"]) {
        expectReply(await target.call(FLAGS.destroy, { key: world.keys.ownerA, params: { project_id, id: flag.id } }), 404, NOT_FOUND)
      }
    }
  }
]
