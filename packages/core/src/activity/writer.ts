import { Struct } from "effect"
import type { Actor } from "../auth/actor.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import type { ActivityChange } from "./model.ts"
import type { ActivityInsert } from "./repository.ts"

/** An entry to write: its columns as stored, and what its detail says. */
export interface ActivityRecord {
  readonly organization_id: OrganizationId
  readonly project_id: ProjectId
  readonly activity: ActivityInsert["activity"]
  readonly scope: string
  readonly item_id: string
  /** What the entry is called in the log (a flag's key, a cohort's name, which may be none). */
  readonly name: string | null
  readonly changes: ReadonlyArray<ActivityChange> | null
}

/**
 * An entry in PostHog's shape, as stored. Its writer stores it in the transaction of the change it
 * records, so an entry exists exactly when its change does.
 */
export const activityEntry = (actor: Actor, entry: ActivityRecord): ActivityInsert => ({
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
