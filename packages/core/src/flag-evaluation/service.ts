import { Context, Effect, Layer, Option } from "effect"
import { CohortRepository } from "../cohorts/repository.ts"
import type { EvaluationContext } from "../evaluation/context.ts"
import { evaluateFlags, type FlagsEvaluation } from "../evaluation/evaluate.ts"
import { LiveFlags } from "../feature-flags/live-flags.ts"
import type { Project } from "../projects/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { Freshness } from "../read-model/freshness.ts"
import { memoized } from "../read-model/memoized.ts"
import type { ProjectId } from "../shared/ids.ts"
import { type FlagSnapshot, snapshotOf } from "./snapshot.ts"

/** Projects whose cohorts are kept in memory at once, as for their flags. */
const MAX_PROJECTS = 64

/**
 * Flag evaluation served from the in-memory read model: a project's live flags (kept fresh row by row)
 * and its cohorts, prepared once per change of either, and the project a public token names.
 */
export class FlagEvaluationService extends Context.Service<FlagEvaluationService, {
  /** The project's flags as evaluation reads them; the same object until a flag or a cohort of the project changes. */
  readonly snapshot: (project: ProjectId) => Effect.Effect<FlagSnapshot>
  /** The project whose public token (`api_token`) this is. */
  readonly projectByToken: (token: string) => Effect.Effect<Option.Option<Project>>
  /** Every flag of the project evaluated in-process for one person, as `/flags` evaluates them. */
  readonly evaluate: (project: ProjectId, context: EvaluationContext) => Effect.Effect<FlagsEvaluation>
}>()("hedgerow/FlagEvaluationService") {
  static readonly layerNoDeps = Layer.effect(
    FlagEvaluationService,
    Effect.gen(function*() {
      const liveFlags = yield* LiveFlags
      const freshness = yield* Freshness
      const cohortRepository = yield* CohortRepository
      const projects = yield* ProjectRepository

      // The same list while no cohort changed, which is what keeps a snapshot.
      const cohortsOf = memoized(
        freshness,
        (project: ProjectId) => Effect.map(cohortRepository.live(project), Option.some),
        { reads: ["cohorts"], maxEntries: MAX_PROJECTS }
      )
      const projectByToken = memoized(freshness, projects.findByToken, { reads: ["projects"] })

      // Untraced: every evaluation asks (see Authentication.authenticate).
      const snapshot = Effect.fnUntraced(function*(project: ProjectId) {
        const flags = yield* liveFlags.of(project)
        const cohorts = yield* cohortsOf(project)
        return snapshotOf(project, flags, Option.getOrElse(cohorts, () => []))
      })

      const evaluate = (project: ProjectId, context: EvaluationContext) =>
        Effect.map(snapshot(project), ({ prepared }) => evaluateFlags(prepared, context))

      return FlagEvaluationService.of({ snapshot, projectByToken, evaluate })
    })
  )
}
