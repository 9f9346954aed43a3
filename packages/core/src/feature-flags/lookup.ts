import { Context, Effect, Layer } from "effect"
import { Access, type ProjectAccess } from "../auth/access.ts"
import type { Actor } from "../auth/actor.ts"
import { Freshness } from "../read-model/freshness.ts"
import { memoized } from "../read-model/memoized.ts"
import { READS } from "../read-model/watched.ts"
import { NotFound, orNotFound, type PermissionDenied } from "../shared/errors.ts"
import { type FeatureFlagId, parseSerial, type ProjectId } from "../shared/ids.ts"
import type { Scope } from "../shared/scope.ts"
import type { StoredFlag } from "./model.ts"
import { FlagRepository } from "./repository.ts"

/** A flag found for a caller, with what they may do in its project. */
export interface FoundFlag {
  readonly access: ProjectAccess
  readonly flag: StoredFlag
}

/**
 * What every endpoint on one flag does first, in PostHog's order: the key's restrictions and scope,
 * tenancy, then the flag itself, which must belong to the project. An unknown, malformed, oversized or
 * foreign id is a 404 alike; a deleted flag is still found by its id.
 */
export class FlagLookup extends Context.Service<FlagLookup, {
  readonly flag: (actor: Actor, project: string, id: string, scope: Scope) => Effect.Effect<FoundFlag, PermissionDenied | NotFound>
}>()("hedgerow/FlagLookup") {
  static readonly layerNoDeps = Layer.effect(
    FlagLookup,
    Effect.gen(function*() {
      const access = yield* Access
      const flags = yield* FlagRepository
      // Held in memory while the read model is fresh; writes read their flag again, locked, in their transaction.
      const flagById = memoized(
        yield* Freshness,
        ({ project, id }: { readonly project: ProjectId; readonly id: FeatureFlagId }) => flags.find(project, id),
        { name: "flags_by_id", reads: READS.flag, keyOf: ({ project, id }) => `${project}/${id}` }
      )

      // Untraced: every flag request asks (see Authentication.authenticate).
      const flag = Effect.fnUntraced(function*(actor: Actor, project: string, id: string, scope: Scope) {
        const projectAccess = yield* access.project(actor, project, scope)
        const flagId = parseSerial(id)
        if (flagId === undefined) return yield* NotFound.default()
        const found = yield* flagById({ project: projectAccess.project.id, id: flagId as FeatureFlagId }).pipe(Effect.flatMap(orNotFound))
        return { access: projectAccess, flag: found }
      })

      return FlagLookup.of({ flag })
    })
  )
}
