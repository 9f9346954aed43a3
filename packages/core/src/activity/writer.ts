import { Context, Effect, Layer, Struct } from "effect"
import type { Actor } from "../auth/actor.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import type { ActivityChange } from "./model.ts"
import { ActivityRepository, type ActivityInsert } from "./repository.ts"

/** An entry to write: its columns as stored, and what its detail says. */
export interface ActivityRecord {
  readonly organization_id: OrganizationId
  readonly project_id: ProjectId
  readonly activity: ActivityInsert["activity"]
  readonly scope: string
  readonly item_id: string
  /** What the entry is called in the log (a flag's key). */
  readonly name: string
  readonly changes: ReadonlyArray<ActivityChange> | null
}

/**
 * Writes activity entries in PostHog's shape. Callers run it inside the transaction of the change it
 * records, so an entry exists exactly when its change does.
 */
export class ActivityWriter extends Context.Service<ActivityWriter, {
  readonly record: (actor: Actor, entry: ActivityRecord) => Effect.Effect<void>
}>()("hedgerow/ActivityWriter") {
  static readonly layerNoDeps = Layer.effect(
    ActivityWriter,
    Effect.gen(function*() {
      const entries = yield* ActivityRepository
      const record = (actor: Actor, entry: ActivityRecord) =>
        entries.insert({
          ...Struct.omit(entry, ["name", "changes"]),
          user_id: actor._tag === "User" ? actor.user.id : null,
          is_system: actor._tag === "System",
          detail: {
            id: entry.item_id,
            changes: entry.changes,
            merge: null,
            trigger: null,
            name: entry.name,
            short_id: null,
            type: null
          }
        })
      return ActivityWriter.of({ record })
    })
  )
}
