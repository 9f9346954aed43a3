import { Schema } from "effect"
import { ActivityLogId, OrganizationId, ProjectId, UserId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"

/** One field's before/after in an activity entry. */
export const ActivityChange = Schema.Struct({
  type: Schema.String,
  action: Schema.Literals(["changed", "created", "deleted", "restored"]),
  field: Schema.NullOr(Schema.String),
  before: Json,
  after: Json
})
export type ActivityChange = typeof ActivityChange.Type

export const ActivityDetail = Schema.Struct({
  id: Schema.String,
  changes: Schema.NullOr(Schema.Array(ActivityChange)),
  merge: Json,
  trigger: Json,
  name: Schema.NullOr(Schema.String),
  short_id: Schema.NullOr(Schema.String),
  type: Schema.NullOr(Schema.String)
})
export type ActivityDetail = typeof ActivityDetail.Type

/** A stored activity entry, written in the same transaction as the change it records. */
export const ActivityLogEntry = Schema.Struct({
  id: ActivityLogId,
  organization_id: OrganizationId,
  project_id: Schema.NullOr(ProjectId),
  user_id: Schema.NullOr(UserId),
  is_system: Schema.Boolean,
  /** A static cohort's members changed one by one: `persons_added_manually`, `person_removed_manually`. */
  activity: Schema.Literals(["created", "updated", "deleted", "restored", "persons_added_manually", "person_removed_manually"]),
  scope: Schema.String,
  item_id: Schema.String,
  detail: ActivityDetail,
  created_at: Timestamp
})
export type ActivityLogEntry = typeof ActivityLogEntry.Type

/** Who an entry names: PostHog's minimal user, or its system marker for operator changes. */
export const ActivityUser = Schema.Struct({
  first_name: Schema.String,
  email: Schema.NullOr(Schema.String),
  is_system: Schema.optionalKey(Schema.Boolean)
})
export type ActivityUser = typeof ActivityUser.Type

/** An entry as the activity endpoints render it. */
export const ActivityLogView = Schema.Struct({
  id: ActivityLogId,
  user: Schema.NullOr(ActivityUser),
  activity: Schema.String,
  scope: Schema.String,
  item_id: Schema.String,
  detail: ActivityDetail,
  created_at: Timestamp
})
export type ActivityLogView = typeof ActivityLogView.Type

/** PostHog's page-number envelope for activity. */
export const ActivityPageEnvelope = Schema.Struct({
  results: Schema.Array(ActivityLogView),
  next: Schema.NullOr(Schema.String),
  previous: Schema.NullOr(Schema.String),
  total_count: Schema.Int
})
export type ActivityPageEnvelope = typeof ActivityPageEnvelope.Type
