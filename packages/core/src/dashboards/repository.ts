import { Context, type Effect, type Option } from "effect"
import type { Dashboard } from "./model.ts"
import type { DashboardId, ProjectId, UserId } from "../shared/ids.ts"

export interface DashboardInsert {
  readonly project_id: ProjectId
  readonly name: string
  readonly description: string
  readonly creation_mode: Dashboard["creation_mode"]
  readonly tiles: ReadonlyArray<unknown>
  readonly created_by_id: UserId | null
}

export class DashboardRepository extends Context.Service<DashboardRepository, {
  readonly insert: (input: DashboardInsert) => Effect.Effect<Dashboard>
  readonly find: (project: ProjectId, id: DashboardId) => Effect.Effect<Option.Option<Dashboard>>
  /** Which of these ids name live dashboards of the project. */
  readonly existing: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DashboardId>>
  readonly setTiles: (id: DashboardId, tiles: ReadonlyArray<unknown>) => Effect.Effect<void>
}>()("hedgerow/DashboardRepository") {}
