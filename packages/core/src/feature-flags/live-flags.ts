import { Context, Effect, Fiber, Layer } from "effect"
import { Freshness } from "../read-model/freshness.ts"
import type { ProjectId } from "../shared/ids.ts"
import { type ProjectFlags, projectFlags, withChanges } from "./project-flags.ts"
import { FeatureFlagRepository } from "./repository.ts"

/** Projects kept in memory at once; a flag is a few kilobytes there. */
const MAX_PROJECTS = 64

/** A project's snapshot, and where the journal of changes and the users' version stood when it was read. */
interface Held {
  readonly position: number
  readonly users: number
  readonly flags: ProjectFlags
}

/**
 * A project's live flags, from memory while the read model is fresh. Read whole once; after that a change
 * to some of its flags rereads just those rows, as the change feed names them. A change the feed cannot
 * name row by row, or to any user (flags carry their creator's name), reads the project whole again,
 * once for all the requests that wait for it.
 */
export class LiveFlags extends Context.Service<LiveFlags, {
  readonly of: (project: ProjectId) => Effect.Effect<ProjectFlags>
}>()("hedgerow/LiveFlags") {
  static readonly layerNoDeps = Layer.effect(
    LiveFlags,
    Effect.gen(function*() {
      const flags = yield* FeatureFlagRepository
      const freshness = yield* Freshness
      const held = new Map<ProjectId, Held>()
      const loading = new Map<ProjectId, { readonly position: number; readonly fiber: Fiber.Fiber<ProjectFlags> }>()

      const keep = (project: ProjectId, entry: Held) => {
        if (!held.has(project) && held.size >= MAX_PROJECTS) held.clear()
        held.set(project, entry)
        return entry.flags
      }

      const readWhole = (project: ProjectId, position: number, users: number) =>
        Effect.gen(function*() {
          const pending = loading.get(project)
          if (pending !== undefined && pending.position === position) return yield* Fiber.join(pending.fiber)
          // Detached, so that a request that goes away does not fail the others waiting for the same read.
          const fiber = yield* Effect.forkDetach(Effect.map(flags.live(project), (live) => keep(project, { position, users, flags: projectFlags(live) })).pipe(
            Effect.ensuring(Effect.sync(() => {
              if (loading.get(project)?.position === position) loading.delete(project)
            }))
          ))
          loading.set(project, { position, fiber })
          return yield* Fiber.join(fiber)
        })

      const of = (project: ProjectId): Effect.Effect<ProjectFlags> =>
        Effect.suspend(() => {
          if (!freshness.live()) return Effect.map(flags.live(project), projectFlags)
          const position = freshness.position()
          const users = freshness.version(["users"])
          const current = held.get(project)
          if (current === undefined || current.users !== users) return readWhole(project, position, users)
          if (current.position === position) return Effect.succeed(current.flags)
          const rows = freshness.rowsChangedSince("feature_flags", current.position)
          if (rows === undefined) return readWhole(project, position, users)
          const prefix = `${project}:`
          const ids = [...new Set(rows.filter((row) => row.startsWith(prefix)).map((row) => Number(row.slice(prefix.length))))]
          if (ids.length === 0) return Effect.succeed(keep(project, { ...current, position }))
          return Effect.map(flags.among(project, ids), (changed) =>
            keep(project, { position, users, flags: withChanges(current.flags, ids, changed) }))
        })

      return LiveFlags.of({ of })
    })
  )
}
