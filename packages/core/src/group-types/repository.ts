import { Context, type Effect, type Option, Schema, Struct } from "effect"
import type { ProjectId } from "../shared/ids.ts"
import { GroupType } from "./model.ts"

/** What a group type's metadata writes: its display names and default columns, the rest stays as made. */
export const GroupTypeMetadata = Schema.Struct(Struct.pick(GroupType.fields, ["name_singular", "name_plural", "default_columns"]))
export type GroupTypeMetadata = typeof GroupTypeMetadata.Type

export class GroupTypeRepository extends Context.Service<GroupTypeRepository, {
  /** The project's group types by index. */
  readonly list: (project: ProjectId) => Effect.Effect<ReadonlyArray<GroupType>>
  /** The same, each row locked until the transaction ends, so that a change made from them is not lost. */
  readonly listForUpdate: (project: ProjectId) => Effect.Effect<ReadonlyArray<GroupType>>
  /**
   * Adds the name at the lowest index below `limit` that no group type of the project holds. None when
   * nothing was added: the name is taken, every index is, another writer took the index meanwhile, or
   * the project is gone.
   */
  readonly insertAtFreeIndex: (project: ProjectId, name: string, limit: number) => Effect.Effect<Option.Option<GroupType>>
  /** Writes the metadata of the group type at this index; none when there is none. */
  readonly update: (project: ProjectId, index: number, metadata: GroupTypeMetadata) => Effect.Effect<Option.Option<GroupType>>
  /** False when there was nothing to delete. */
  readonly delete: (project: ProjectId, index: number) => Effect.Effect<boolean>
}>()("hedgerow/GroupTypeRepository") {}
