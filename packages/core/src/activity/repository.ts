import { Context, type Effect, Schema, Struct } from "effect"
import { ActivityLogEntry, type ActivityLogView } from "./model.ts"
import type { ProjectId } from "../shared/ids.ts"
import type { NumberedPage, PageNumberRequest } from "../shared/page.ts"

/** An entry as written; the database gives it its id and time. */
export const ActivityInsert = Schema.Struct(Struct.omit(ActivityLogEntry.fields, ["id", "created_at"]))
export type ActivityInsert = typeof ActivityInsert.Type

export class ActivityRepository extends Context.Service<ActivityRepository, {
  readonly insert: (entry: ActivityInsert) => Effect.Effect<void>
  /** Newest first, ties by id; one item when `item` is given, else the whole scope of the project. */
  readonly page: (
    filter: { readonly project_id: ProjectId; readonly scope: string; readonly item: string | null },
    page: PageNumberRequest
  ) => Effect.Effect<NumberedPage<ActivityLogView>>
  /** These entries as the activity endpoints render them, in no particular order. */
  readonly entries: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ActivityLogView>>
}>()("hedgerow/ActivityRepository") {}
