import { conditionGroup as group, createFlag, filtersError, FLAGS, flagProperty, getFlag, patchFlag, postFlag, projectOf, uniqueKey } from "./feature-flags-support.ts"
import { expectReply, invalid, needWorld, type Scenario } from "./scenario.ts"

/** Flag dependencies (flag-type properties): references by id, no cycles, and what they forbid later. */
export const featureFlagDependencyScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag dependencies: no self-reference, no cycle, only live and enabled flags of the project",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const b = await createFlag(target, at, { key: uniqueKey("dep-b") })
      const a = await createFlag(target, at, { key: uniqueKey("dep-a"), filters: { groups: [group([flagProperty(String(b.id))])] } })
      expectReply(
        await patchFlag(target, at, a.id, { filters: { groups: [group([flagProperty(String(a.id))])] } }),
        400,
        filtersError(`Feature flag '${a.key}' cannot depend on itself`)
      )
      expectReply(
        await patchFlag(target, at, b.id, { filters: { groups: [group([flagProperty(String(a.id))])] } }),
        400,
        filtersError(`Circular dependency detected: ${b.key} → ${a.key} → ${b.key}`)
      )

      const disabled = await createFlag(target, at, { key: uniqueKey("dep-off"), active: false })
      expectReply(
        await postFlag(target, at, { key: uniqueKey("dep-on-off"), filters: { groups: [group([flagProperty(String(disabled.id))])] } }),
        400,
        filtersError(`Cannot create dependency on disabled flag '${disabled.key}' (ID: ${disabled.id}). Flag dependencies must reference active flags only.`)
      )
      const gone = await createFlag(target, at, { key: uniqueKey("dep-gone") })
      expectReply(await patchFlag(target, at, gone.id, { deleted: true }), 200)
      expectReply(
        await postFlag(target, at, { key: uniqueKey("dep-on-gone"), filters: { groups: [group([flagProperty(String(gone.id))])] } }),
        400,
        filtersError(`Flag dependency references non-existent flag with ID ${gone.id}`)
      )
    }
  },
  {
    name: "a flag other active flags depend on can be neither soft-deleted nor disabled",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const base = await createFlag(target, at, { key: uniqueKey("base") })
      const dependent = await createFlag(target, at, { key: uniqueKey("dependent"), filters: { groups: [group([flagProperty(String(base.id))])] } })
      expectReply(
        await patchFlag(target, at, base.id, { deleted: true }),
        400,
        invalid(null, `Cannot delete this feature flag because other flags depend on it: ${dependent.key} (ID: ${dependent.id}). Please update or delete the dependent flags first.`)
      )
      expectReply(
        await patchFlag(target, at, base.id, { active: false }),
        400,
        invalid(null, `Cannot disable this feature flag because other flags depend on it: ${dependent.key} (ID: ${dependent.id}). Please update or disable the dependent flags first.`)
      )
      expectReply(await getFlag(target, at, base.id), 200, base)
      // Once the dependent flag is disabled, nothing active depends on the base any more.
      expectReply(await patchFlag(target, at, dependent.id, { active: false }), 200)
      expectReply(await patchFlag(target, at, base.id, { deleted: true }), 200)
    }
  },
  {
    name: "a flag dependency on another organization's flag is a non-existent flag",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const foreign = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("foreign-dep") })
      expectReply(
        await target.call(FLAGS.create, {
          key: world.keys.ownerA,
          params: { project_id: world.projectA },
          body: { key: uniqueKey("on-foreign"), filters: { groups: [group([flagProperty(String(foreign.id))])] } }
        }),
        400,
        filtersError(`Flag dependency references non-existent flag with ID ${foreign.id}`)
      )
    }
  }
]
