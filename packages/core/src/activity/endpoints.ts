import type { Effect } from "effect"
import type { Actor } from "../auth/actor.ts"
import type { NotFound, PermissionDenied } from "../shared/errors.ts"
import type { NumberedPage, PageNumberQuery } from "../shared/page.ts"
import type { ActivityLogView } from "./model.ts"

/** `{id}/activity/` of a project's items (flags, cohorts): the item's log, newest first. */
export type ItemActivity = (
  actor: Actor,
  project: string,
  id: string,
  query: PageNumberQuery
) => Effect.Effect<NumberedPage<ActivityLogView>, PermissionDenied | NotFound>

/** `activity/` of a project's items of one kind: every item's log. */
export type ProjectActivity = (
  actor: Actor,
  project: string,
  query: PageNumberQuery
) => Effect.Effect<NumberedPage<ActivityLogView>, PermissionDenied | NotFound>
