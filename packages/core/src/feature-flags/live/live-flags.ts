import { Context, Effect, FiberSet, Layer, Semaphore } from "effect"
import { ProjectRepository } from "../../projects/repository.ts"
import { Freshness } from "../../read-model/freshness.ts"
import { READS } from "../../read-model/watched.ts"
import type { ProjectId } from "../../shared/ids.ts"
import { FlagRepository } from "../repository.ts"
import { applyChanges, type ProjectFlags, projectFlags } from "./project-flags.ts"

/**
 * What the projects' flags kept in memory may cost together; past it the least recently used make way, as
 * many as it takes (the project in use stays, however large).
 */
export const LiveFlagsBudget = Context.Reference<number>("hedgerow/LiveFlagsBudget", { defaultValue: () => 256 * 1024 * 1024 })

/** How often, at most, the projects held are checked for removed ones. */
const SWEEP_EVERY_MS = 1000

/** A project's flags, and where the journal of changes and the users' version stood when they were last brought up to date. */
interface Held {
  position: number
  users: number
  readonly flags: ProjectFlags
  /** Its flags' bytes as last counted in the total. */
  counted: number
}

/**
 * A project's live flags, from memory while the read model is fresh. Read whole once; after that a change
 * to some of its flags rereads just those rows, as the change feed names them. A change the feed cannot
 * name row by row, or to any user (flags carry their creator's name), reads the project whole again.
 * One request at a time brings a project up to date; those that come meanwhile wait for it.
 */
export class LiveFlags extends Context.Service<LiveFlags, {
  readonly of: (project: ProjectId) => Effect.Effect<ProjectFlags>
  /** The projects whose flags are in memory now. */
  readonly held: () => ReadonlyArray<ProjectId>
}>()("hedgerow/LiveFlags") {
  static readonly layerNoDeps = Layer.effect(
    LiveFlags,
    Effect.gen(function*() {
      const flags = yield* FlagRepository
      const freshness = yield* Freshness
      const budget = yield* LiveFlagsBudget
      const projects = yield* ProjectRepository
      const sweeps = yield* FiberSet.make()
      const held = new Map<ProjectId, Held>()
      freshness.holds("live_flag_projects", () => held.size)
      const turns = new Map<ProjectId, Semaphore.Semaphore>()

      // One turn per project ever asked for: a turn is a few bytes, and dropping one while a refresh holds
      // it would let a second refresh run beside the first.
      const turnOf = (project: ProjectId) => {
        let turn = turns.get(project)
        if (turn === undefined) {
          turn = Semaphore.makeUnsafe(1)
          turns.set(project, turn)
        }
        return turn
      }

      let heldBytes = 0
      const forget = (project: ProjectId) => {
        const entry = held.get(project)
        if (entry === undefined) return
        held.delete(project)
        heldBytes -= entry.counted
      }

      /** Maps keep insertion order: a project used again moves to the end, and the first is the least recent. */
      const touch = (project: ProjectId, entry: Held) => {
        forget(project)
        entry.counted = entry.flags.bytes
        held.set(project, entry)
        heldBytes += entry.counted
        for (const oldest of held.keys()) {
          if (heldBytes <= budget || oldest === project) break
          forget(oldest)
        }
        return entry.flags
      }

      const readWhole = (project: ProjectId, position: number, users: number) =>
        Effect.map(flags.live(project), (live) => touch(project, { position, users, flags: projectFlags(live), counted: 0 }))

      /** Brings the project up to date, under its turn: the journal is read again, as another may have gone first. */
      const refresh = (project: ProjectId) =>
        Effect.suspend(() => {
          const position = freshness.position()
          const users = freshness.version(READS.liveFlagNames)
          const current = held.get(project)
          if (current === undefined || current.users !== users) return readWhole(project, position, users)
          if (current.position === position) return Effect.succeed(touch(project, current))
          const rows = freshness.rowsChangedSince(READS.liveFlagRows, current.position)
          if (rows === undefined) return readWhole(project, position, users)
          const prefix = `${project}:`
          const ids = [...new Set(rows.filter((row) => row.startsWith(prefix)).map((row) => Number(row.slice(prefix.length))))]
          if (ids.length === 0) {
            current.position = position
            return Effect.succeed(touch(project, current))
          }
          return Effect.map(flags.among(project, ids), (changed) => {
            applyChanges(current.flags, ids, changed)
            current.position = position
            return touch(project, current)
          })
        })

      // A removed project's flags are never asked for again, so they would stay until the budget needed
      // room. After projects change, the projects held are checked against the store, off the request's
      // path and at most once a second, and those that are gone are forgotten, turns and all.
      let sweptVersion = -1
      let sweptAt = 0
      const sweepRemoved = Effect.suspend(() => {
        const ids = [...new Set([...held.keys(), ...turns.keys()])]
        return Effect.map(projects.existing(ids), (found) => {
          for (const id of ids) {
            if (found.has(id)) continue
            forget(id)
            turns.delete(id)
          }
        }).pipe(
          // Memory is only kept a little longer: the next request a second on looks again.
          Effect.catchCause((cause) =>
            Effect.andThen(Effect.sync(() => (sweptVersion = -1)), Effect.logWarning("removed projects not looked for", cause)))
        )
      })
      const sweepIfProjectsChanged = (): Effect.Effect<void> | undefined => {
        const version = freshness.version(READS.heldProjects)
        if (version === sweptVersion || turns.size === 0) return undefined
        const now = Date.now()
        if (now - sweptAt < SWEEP_EVERY_MS) return undefined
        sweptVersion = version
        sweptAt = now
        return Effect.asVoid(FiberSet.run(sweeps, sweepRemoved))
      }

      const of = (project: ProjectId): Effect.Effect<ProjectFlags> =>
        Effect.suspend(() => {
          if (!freshness.live()) return Effect.map(flags.live(project), projectFlags)
          const sweep = sweepIfProjectsChanged()
          const current = held.get(project)
          const answer = current !== undefined && current.position === freshness.position() &&
              current.users === freshness.version(READS.liveFlagNames)
            ? Effect.succeed(touch(project, current))
            : turnOf(project).withPermit(refresh(project))
          return sweep === undefined ? answer : Effect.andThen(sweep, answer)
        })

      return LiveFlags.of({ of, held: () => [...held.keys()] })
    })
  )
}
