import assert from "node:assert/strict"
import { createFlag, keysOf, linkOf, listFlags, patchFlag, projectOf, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { expectReply, needWorld, type Scenario, type ScenarioContext } from "./scenario.ts"

const multivariate = {
  groups: [{ properties: [], rollout_percentage: 100 }],
  multivariate: { variants: [{ key: "a", name: "A", rollout_percentage: 50 }, { key: "b", name: "B", rollout_percentage: 50 }] }
}

/**
 * Three flags sharing a fresh search token, created oldest first: a boolean one, a multivariate one
 * whose token is only in its name (in upper case), and an inactive tagged one.
 */
const seed = async (context: ScenarioContext) => {
  const { target, primary } = context
  const at = { key: primary.key, project: projectOf(context) }
  const token = uniqueKey("tok").replace(/-/g, "")
  const boolean = await createFlag(target, at, { key: `${token}-boolean`, name: "Plain", filters: rolledOut(100) })
  const variant = await createFlag(target, at, { key: uniqueKey("variant"), name: `About ${token.toUpperCase()} variants`, filters: multivariate })
  const tagged = await createFlag(target, at, { key: `${token}-tagged`, active: false, tags: [`${token}-tag`, "shared-tag"] })
  return { at, token, boolean, variant, tagged }
}

export const featureFlagListScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag list search matches key or name, case-insensitively, newest first",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      const reply = await listFlags(target, at, { search: token.toUpperCase() })
      expectReply(reply, 200)
      assert.deepEqual(keysOf(reply), [tagged.key, variant.key, boolean.key])
      assert.equal(reply.body.count, 3)
      const byName = await listFlags(target, at, { search: `about ${token}` })
      assert.deepEqual(keysOf(byName), [variant.key])
      const none = await listFlags(target, at, { search: `${token}-nothing` })
      expectReply(none, 200, { count: 0, next: null, previous: null, results: [] })
    }
  },
  {
    name: "flag list type filter: boolean, multivariant, experiment",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, type: "boolean" })), [tagged.key, boolean.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, type: "multivariant" })), [variant.key])
      // No experiment is linked to any flag: this service has no experiments endpoint.
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, type: "experiment" })), [])
    }
  },
  {
    name: "flag list filters PostHog also takes: type=remote_config, evaluation_runtime, excluded_properties",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      const remote = await createFlag(target, at, { key: `${token}-remote`, is_remote_configuration: true, evaluation_runtime: "server" })
      const list = async (query: Record<string, string>) => keysOf(await listFlags(target, at, { search: token, ...query }))
      // One comparison, so that a failure shows every filter's answer at once.
      assert.deepEqual(
        {
          remoteConfig: await list({ type: "remote_config" }),
          serverRuntime: await list({ evaluation_runtime: "server" }),
          allRuntime: await list({ evaluation_runtime: "all" }),
          excluded: await list({ excluded_properties: JSON.stringify([remote.key, tagged.key]) }),
          malformedExclusion: await list({ excluded_properties: "[oops" })
        },
        {
          remoteConfig: [remote.key],
          serverRuntime: [remote.key],
          allRuntime: [tagged.key, variant.key, boolean.key],
          excluded: [variant.key, boolean.key],
          malformedExclusion: [remote.key, tagged.key, variant.key, boolean.key]
        }
      )
    }
  },
  {
    name: "flag list active filter: true, anything else means inactive, STALE needs 30 days",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, active: "true" })), [variant.key, boolean.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, active: "false" })), [tagged.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, active: "no" })), [tagged.key])
      // Both active flags are fully rolled out, but a flag is stale only 30 days after its creation,
      // which an API client cannot backdate: no flag made here can be listed as STALE.
      const stale = await listFlags(target, at, { search: token, active: "STALE" })
      expectReply(stale, 200)
      assert.deepEqual(keysOf(stale), [])
    }
  },
  {
    name: "flag list created_by_id filter keeps the flags that user created",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { at, token } = await seed(context)
      const owner = await target.call({ group: "identity", endpoint: "me" }, { key: world.keys.ownerA })
      const member = await target.call({ group: "identity", endpoint: "me" }, { key: world.keys.memberA })
      assert.equal((await listFlags(target, at, { search: token, created_by_id: owner.body.id })).body.count, 3)
      assert.equal((await listFlags(target, at, { search: token, created_by_id: member.body.id })).body.count, 0)
    }
  },
  {
    name: "flag list tags filter takes a JSON list of tag names and ignores malformed JSON",
    run: async (context) => {
      const { target } = context
      const { at, token, tagged } = await seed(context)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, tags: JSON.stringify([`${token}-tag`]) })), [tagged.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, tags: JSON.stringify(["no-such-tag", "shared-tag"]) })), [tagged.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, tags: JSON.stringify(["no-such-tag"]) })), [])
      assert.equal((await listFlags(target, at, { search: token, tags: "[not json" })).body.count, 3)
    }
  },
  {
    name: "flag list order: a field name ascending or descending; default newest first",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      const byKey = [boolean.key, tagged.key, variant.key].sort()
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, order: "key" })), byKey)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, order: "-key" })), [...byKey].reverse())
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, order: "created_at" })), [boolean.key, variant.key, tagged.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token })), [tagged.key, variant.key, boolean.key])
    }
  },
  {
    name: "flag list deleted=true lists the soft-deleted flags, last deleted first, searched by key or name; the live list leaves them out",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      for (const flag of [variant, boolean]) expectReply(await patchFlag(target, at, flag.id, { deleted: true }), 200)
      const archive = await listFlags(target, at, { search: token, deleted: "true" })
      expectReply(archive, 200)
      assert.deepEqual(keysOf(archive), [boolean.key, variant.key])
      assert.equal(archive.body.count, 2)
      assert.ok(archive.body.results.every((flag: { deleted: boolean; status: string }) => flag.deleted && flag.status === "DELETED"))
      // By name too, in any case, and paged as every list is.
      assert.deepEqual(keysOf(await listFlags(target, at, { search: `ABOUT ${token}`, deleted: "true" })), [variant.key])
      const first = await listFlags(target, at, { search: token, deleted: "true", limit: 1 })
      assert.deepEqual({ count: first.body.count, keys: keysOf(first) }, { count: 2, keys: [boolean.key] })
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, deleted: "true", limit: 1, offset: 1 })), [variant.key])
      // Any other value is the live list, as without the parameter; the live filters are not read in the archive.
      for (const deleted of ["false", "1", ""]) assert.deepEqual(keysOf(await listFlags(target, at, { search: token, deleted })), [tagged.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, deleted: "true", active: "true", order: "-key" })), [boolean.key, variant.key])
      // Text that no stored key or name can hold finds nothing, never an error.
      for (const search of ["a\u0000b", "%_\\"]) expectReply(await listFlags(target, at, { search, deleted: "true" }), 200, { count: 0, next: null, previous: null, results: [] })
      // Restored, a flag leaves the archive for the live list.
      expectReply(await patchFlag(target, at, variant.id, { deleted: false }), 200)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, deleted: "true" })), [boolean.key])
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token })), [tagged.key, variant.key])
    }
  },
  {
    name: "flag list reads odd filter values leniently: bad input is never a 500",
    run: async (context) => {
      const { target } = context
      const { at, token } = await seed(context)
      for (const query of [
        { order: "no_such_field" },
        { order: "key; DROP TABLE feature_flags" },
        { order: "-" },
        { created_by_id: "abc" },
        { type: "unknown" },
        { tags: "{\"not\": \"a list\"}" },
        { search: "%_\\" }
      ]) {
        const reply = await listFlags(target, at, { search: token, ...query })
        assert.equal(reply.status, 200, `${JSON.stringify(query)}: ${JSON.stringify(reply.body)}`)
      }
      // LIKE wildcards in a search are text, not patterns.
      assert.equal((await listFlags(target, at, { search: "%" })).body.count, 0)
      assert.equal((await listFlags(target, at, { search: `${token.slice(0, 3)}_${token.slice(4)}` })).body.count, 0)
    }
  },
  {
    name: "flag list pages with limit/offset and links that keep the filters",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      const path = `/api/projects/${at.project}/feature_flags/`
      const first = await listFlags(target, at, { search: token, limit: 2 })
      expectReply(first, 200)
      assert.equal(first.body.count, 3)
      assert.deepEqual(keysOf(first), [tagged.key, variant.key])
      assert.deepEqual(linkOf(first.body.next), { path, query: { limit: "2", offset: "2", search: token } })
      assert.equal(first.body.previous, null)
      const second = await listFlags(target, at, { search: token, limit: 2, offset: 2 })
      assert.deepEqual(keysOf(second), [boolean.key])
      assert.equal(second.body.next, null)
      assert.deepEqual(linkOf(second.body.previous), { path, query: { limit: "2", search: token } })
      const middle = await listFlags(target, at, { search: token, limit: 1, offset: 2, type: "boolean" })
      assert.equal(middle.body.count, 2)
      assert.deepEqual(linkOf(middle.body.previous), { path, query: { limit: "1", offset: "1", search: token, type: "boolean" } })
    }
  },
  {
    name: "flag list hides soft-deleted flags and shows them again once restored",
    run: async (context) => {
      const { target } = context
      const { at, token, boolean, variant, tagged } = await seed(context)
      expectReply(await patchFlag(target, at, variant.id, { deleted: true }), 200)
      const listed = await listFlags(target, at, { search: token })
      assert.deepEqual(keysOf(listed), [tagged.key, boolean.key])
      assert.equal(listed.body.count, 2)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token, active: "true" })), [boolean.key])
      expectReply(await patchFlag(target, at, variant.id, { deleted: false }), 200)
      assert.deepEqual(keysOf(await listFlags(target, at, { search: token })), [tagged.key, variant.key, boolean.key])
    }
  },
  {
    name: "flag list of one project never shows another project's flags",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = uniqueKey("project-b-only")
      await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key })
      assert.equal((await listFlags(target, { key: world.keys.ownerA, project: world.projectA }, { search: key })).body.count, 0)
      assert.deepEqual(keysOf(await listFlags(target, { key: world.keys.ownerB, project: world.projectB }, { search: key })), [key])
    }
  }
]
