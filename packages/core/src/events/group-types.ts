import { Context, type Effect } from "effect"
import type { ProjectId } from "../shared/ids.ts"

/**
 * Where `$groupidentify` events register the group types they name (`$group_type`), as PostHog's
 * ingestion registers a type at its first group. The group-type service owns the rules (a project holds
 * at most five; a name already known is no change): this port is how the events reach it.
 */
export class GroupTypeRegistry extends Context.Service<GroupTypeRegistry, {
  /** The project has a group type called `name`. */
  readonly register: (project: ProjectId, name: string) => Effect.Effect<void>
}>()("hedgerow/GroupTypeRegistry") {}
