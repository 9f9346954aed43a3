import { Clock, Context, Effect, Layer } from "effect"
import type { ProjectAccess } from "../auth/access.ts"
import { CohortRepository } from "../cohorts/repository.ts"
import type { EditRights } from "./access/edit-rights.ts"
import { cohortIdsIn, conditionsOf } from "./conditions.ts"
import type { FlagView, StoredFlag } from "./model.ts"
import { FlagUsage } from "./usage/last-called.ts"
import { toFlagView } from "./view.ts"

/**
 * Stored flags made into the API's answers for one caller: `can_edit` from the rights the request
 * decided, the names of the cohorts their filters use (one read for all of them) and when each was last
 * called.
 */
export class FlagRenderer extends Context.Service<FlagRenderer, {
  readonly render: (access: ProjectAccess, flags: ReadonlyArray<StoredFlag>, rights: EditRights) => Effect.Effect<ReadonlyArray<FlagView>>
  readonly renderOne: (access: ProjectAccess, flag: StoredFlag, rights: EditRights) => Effect.Effect<FlagView>
}>()("hedgerow/FlagRenderer") {
  static readonly layerNoDeps = Layer.effect(
    FlagRenderer,
    Effect.gen(function*() {
      const cohorts = yield* CohortRepository
      const usage = yield* FlagUsage

      const render = (access: ProjectAccess, flags: ReadonlyArray<StoredFlag>, rights: EditRights) =>
        Effect.gen(function*() {
          if (flags.length === 0) return []
          // Each flag's conditions are read once, for its cohort names and for its answer.
          const conditions = flags.map((stored) => conditionsOf(stored.filters))
          const referenced = [...new Set(conditions.flatMap(cohortIdsIn))]
          const briefs = referenced.length === 0 ? [] : yield* cohorts.briefs(access.project.id, referenced)
          const cohortNames = new Map(briefs.map((cohort) => [cohort.id as number, cohort.name]))
          const nowMillis = yield* Clock.currentTimeMillis
          const lastCalled = yield* usage.lastCalled(access.project.id)
          return flags.map((stored, i) =>
            toFlagView(stored, { canEdit: rights.canEdit(stored), cohortNames, nowMillis, lastCalled }, conditions[i]))
        })

      const renderOne = (access: ProjectAccess, flag: StoredFlag, rights: EditRights) =>
        Effect.map(render(access, [flag], rights), (rendered) => rendered[0]!)

      return FlagRenderer.of({ render, renderOne })
    })
  )
}
