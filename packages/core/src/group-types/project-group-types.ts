import { Context, Effect, Layer, Option } from "effect"
import { Freshness } from "../read-model/freshness.ts"
import { memoized } from "../read-model/memoized.ts"
import { READS } from "../read-model/watched.ts"
import type { ProjectId } from "../shared/ids.ts"
import type { GroupType } from "./model.ts"
import { GroupTypeRepository } from "./repository.ts"

/**
 * Each project's group types, from memory while the read model is fresh: evaluation reads them on every
 * request, and an event naming a group type that exists costs no query. Any change to a group type, in
 * this process or another, drops what is held.
 */
export class ProjectGroupTypes extends Context.Service<ProjectGroupTypes, {
  /** The project's group types by index: the same array until one of them changes. */
  readonly of: (project: ProjectId) => Effect.Effect<ReadonlyArray<GroupType>>
}>()("hedgerow/ProjectGroupTypes") {
  static readonly layerNoDeps = Layer.effect(
    ProjectGroupTypes,
    Effect.gen(function*() {
      const repository = yield* GroupTypeRepository
      const held = memoized(
        yield* Freshness,
        (project: ProjectId) => Effect.map(repository.list(project), Option.some),
        { name: "group_types", reads: READS.groupTypes }
      )
      // Untraced: every evaluation asks.
      const of = Effect.fnUntraced(function*(project: ProjectId) {
        return Option.getOrElse(yield* held(project), () => [])
      })
      return ProjectGroupTypes.of({ of })
    })
  )
}
