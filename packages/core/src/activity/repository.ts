import { Context, type Effect } from "effect"
import type { ActivityDetail, ActivityLogView } from "./model.ts"
import type { OrganizationId, ProjectId, UserId } from "../shared/ids.ts"
import type { NumberedPage, PageNumberRequest } from "../shared/page.ts"

export interface ActivityInsert {
  readonly organization_id: OrganizationId
  readonly project_id: ProjectId
  readonly user_id: UserId | null
  readonly is_system: boolean
  readonly activity: "created" | "updated" | "deleted" | "restored"
  readonly scope: string
  readonly item_id: string
  readonly detail: ActivityDetail
}

export class ActivityRepository extends Context.Service<ActivityRepository, {
  readonly insert: (entry: ActivityInsert) => Effect.Effect<void>
  /** Newest first, ties by id; one item when `item` is given, else the whole scope of the project. */
  readonly page: (
    filter: { readonly project_id: ProjectId; readonly scope: string; readonly item: string | null },
    page: PageNumberRequest
  ) => Effect.Effect<NumberedPage<ActivityLogView>>
}>()("hedgerow/ActivityRepository") {}
