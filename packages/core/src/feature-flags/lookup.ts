import { Clock, Context, Effect, Layer } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access, type ProjectAccess } from "../auth/access.ts"
import { CohortRepository } from "../cohorts/repository.ts"
import { RoleRepository } from "../roles/repository.ts"
import { NotFound, orNotFound, PermissionDenied } from "../shared/errors.ts"
import { type FeatureFlagId, parseSerial, type ProjectId } from "../shared/ids.ts"
import { Freshness } from "../read-model/freshness.ts"
import { memoized } from "../read-model/memoized.ts"
import type { Scope } from "../shared/scope.ts"
import { type CallerRole, type Editor, editRights, needsRoles } from "./access/edit-rights.ts"
import type { FlagView, StoredFlag } from "./model.ts"
import { FlagRepository } from "./repository.ts"
import { cohortIdsIn, conditionsOf } from "./conditions.ts"
import { FlagUsage } from "./usage/last-called.ts"
import { toFlagView } from "./management/view.ts"

export interface FoundFlag {
  readonly access: ProjectAccess
  readonly flag: StoredFlag
}

export const editorOf = (actor: Actor, access: ProjectAccess): Editor => ({
  user: actor._tag === "User" ? actor.user.id : null,
  level: access.level
})

/**
 * What every flag endpoint does first, in PostHog's order: key restrictions and scope, tenancy, then the
 * flag itself, which must belong to the project (unknown, malformed, oversized or foreign ids are all
 * 404). Also the caller's roles, read once per request and only when they can matter, and rendering.
 */
export class FlagReader extends Context.Service<FlagReader, {
  readonly flag: (actor: Actor, project: string, id: string, scope: Scope) => Effect.Effect<FoundFlag, PermissionDenied | NotFound>
  readonly roles: (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<StoredFlag>) => Effect.Effect<ReadonlyArray<CallerRole>>
  readonly render: (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<StoredFlag>) => Effect.Effect<ReadonlyArray<FlagView>>
  readonly renderOne: (actor: Actor, access: ProjectAccess, flag: StoredFlag) => Effect.Effect<FlagView>
  /** PostHog's legacy CanEditFeatureFlag: writes to a flag need the right to edit it. */
  readonly requireEdit: (actor: Actor, found: FoundFlag) => Effect.Effect<void, PermissionDenied>
}>()("hedgerow/FlagReader") {
  static readonly layerNoDeps = Layer.effect(
    FlagReader,
    Effect.gen(function*() {
      const access = yield* Access
      const flags = yield* FlagRepository
      const roleRepository = yield* RoleRepository
      const cohorts = yield* CohortRepository
      const usage = yield* FlagUsage
      // Every flag endpoint reads its flag first; writes read it again under a row lock in their transaction.
      const flagById = memoized(
        yield* Freshness,
        ({ project, id }: { readonly project: ProjectId; readonly id: FeatureFlagId }) => flags.find(project, id),
        // A stored flag carries its creator's and last modifier's names.
        { reads: ["feature_flags", "users"], keyOf: ({ project, id }) => `${project}/${id}` }
      )

      // Untraced: every flag request asks (see Authentication.authenticate).
      const flag = Effect.fnUntraced(function*(actor: Actor, project: string, id: string, scope: Scope) {
        const projectAccess = yield* access.project(actor, project, scope)
        const flagId = parseSerial(id)
        if (flagId === undefined) return yield* NotFound.default()
        const found = yield* flagById({ project: projectAccess.project.id, id: flagId as FeatureFlagId }).pipe(Effect.flatMap(orNotFound))
        return { access: projectAccess, flag: found }
      })

      const roles = (actor: Actor, projectAccess: ProjectAccess, of: ReadonlyArray<StoredFlag>) => {
        const editor = editorOf(actor, projectAccess)
        return editor.user === null || !needsRoles(editor, of)
          ? Effect.succeed([])
          : roleRepository.callerRoles(projectAccess.organization_id, editor.user, of.map((f) => f.id))
      }

      const render = (actor: Actor, projectAccess: ProjectAccess, of: ReadonlyArray<StoredFlag>) =>
        Effect.gen(function*() {
          if (of.length === 0) return []
          const callerRoles = yield* roles(actor, projectAccess, of)
          const canEdit = editRights(editorOf(actor, projectAccess), callerRoles)
          // Each flag's conditions are read once, for its cohort names and for its answer.
          const conditions = of.map((stored) => conditionsOf(stored.filters))
          const referenced = [...new Set(conditions.flatMap(cohortIdsIn))]
          const briefs = referenced.length === 0 ? [] : yield* cohorts.briefs(projectAccess.project.id, referenced)
          const cohortNames = new Map(briefs.map((cohort) => [cohort.id as number, cohort.name]))
          const nowMillis = yield* Clock.currentTimeMillis
          const lastCalled = yield* usage.lastCalled(projectAccess.project.id)
          return of.map((stored, i) =>
            toFlagView(stored, { canEdit: canEdit(stored), cohortNames, nowMillis, lastCalled }, conditions[i]))
        })

      const renderOne = (actor: Actor, projectAccess: ProjectAccess, stored: StoredFlag) =>
        render(actor, projectAccess, [stored]).pipe(Effect.map((rendered) => rendered[0]!))

      const requireEdit = (actor: Actor, found: FoundFlag) =>
        roles(actor, found.access, [found.flag]).pipe(Effect.flatMap((callerRoles) =>
          editRights(editorOf(actor, found.access), callerRoles)(found.flag)
            ? Effect.void
            : Effect.fail(new PermissionDenied({ detail: "You don't have edit permissions for this feature flag." }))
        ))

      return FlagReader.of({ flag, roles, render, renderOne, requireEdit })
    })
  )
}
