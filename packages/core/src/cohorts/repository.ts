import { Context, type Effect } from "effect"
import type { Cohort } from "./model.ts"
import type { UserSummary } from "../users/model.ts"
import type { CohortId, ProjectId, UserId } from "../shared/ids.ts"

export interface CohortInsert {
  readonly project_id: ProjectId
  readonly name: string
  readonly description: string
  readonly is_static: boolean
  readonly is_calculating: boolean
  readonly count: number | null
  readonly created_by_id: UserId | null
}

/** What flags need to know about a cohort they reference. */
export interface CohortBrief {
  readonly id: CohortId
  readonly name: string
  readonly filters: unknown
  readonly groups: unknown
  readonly deleted: boolean
}

export class CohortRepository extends Context.Service<CohortRepository, {
  readonly insert: (input: CohortInsert) => Effect.Effect<Cohort & { readonly created_by: UserSummary | null }>
  /** Cohorts of the project with these ids, deleted ones included. */
  readonly briefs: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<CohortBrief>>
}>()("hedgerow/CohortRepository") {}
