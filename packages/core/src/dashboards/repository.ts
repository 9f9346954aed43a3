import { Context, type Effect, type Option, Schema, Struct } from "effect"
import { Dashboard } from "./model.ts"
import type { DashboardId, ProjectId } from "../shared/ids.ts"

/** A dashboard as written: the database gives it its id and time, and it starts live. */
export const DashboardInsert = Schema.Struct(Struct.omit(Dashboard.fields, ["id", "created_at", "deleted"]))
export type DashboardInsert = typeof DashboardInsert.Type

export class DashboardRepository extends Context.Service<DashboardRepository, {
  readonly insert: (input: DashboardInsert) => Effect.Effect<Dashboard>
  readonly find: (project: ProjectId, id: DashboardId) => Effect.Effect<Option.Option<Dashboard>>
  /** Which of these ids name live dashboards of the project. */
  readonly existing: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DashboardId>>
  readonly setTiles: (id: DashboardId, tiles: ReadonlyArray<unknown>) => Effect.Effect<void>
}>()("hedgerow/DashboardRepository") {}
