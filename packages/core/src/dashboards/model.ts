import { Schema } from "effect"
import { DashboardId, ProjectId, UserId } from "../shared/ids.ts"
import { Json } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"

/** A stored dashboard record; there is no analytics engine behind it, so its tiles are only stored. */
export const Dashboard = Schema.Struct({
  id: DashboardId,
  project_id: ProjectId,
  name: Schema.String,
  description: Schema.String,
  creation_mode: Schema.Literals(["default", "template", "duplicate"]),
  tiles: Json,
  created_by_id: Schema.NullOr(UserId),
  created_at: Timestamp,
  deleted: Schema.Boolean
})
export type Dashboard = typeof Dashboard.Type
