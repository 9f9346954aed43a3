import { Context, Effect, Layer } from "effect"
import type { ProjectAccess } from "../../auth/access.ts"
import type { Actor } from "../../auth/actor.ts"
import { RoleRepository } from "../../roles/repository.ts"
import {
  type CallerRole,
  type Editor,
  editorOf,
  type EditRights,
  editRightsOf,
  editsEveryFlag,
  type FlagOwnership,
  isAdministrator,
  needsRoles
} from "./edit-rights.ts"

/** Rights over some flags and over the project's flags as a whole. */
export interface ProjectEditRights extends EditRights {
  readonly editsEveryFlag: boolean
}

/**
 * A caller's edit rights, decided once per request: their roles in the organization are read in one
 * statement, with the grants of the flags asked about, and only when the answer can depend on them.
 */
export class FlagCallerRights extends Context.Service<FlagCallerRights, {
  /** Rights over `flags`: the roles are read only when some flag is neither administered nor created by the caller. */
  readonly of: (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<FlagOwnership>) => Effect.Effect<EditRights>
  /** The same, and whether the caller edits every flag of the project, which reads the roles of any member below administrator. */
  readonly withProject: (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<FlagOwnership>) => Effect.Effect<ProjectEditRights>
}>()("hedgerow/FlagCallerRights") {
  static readonly layerNoDeps = Layer.effect(
    FlagCallerRights,
    Effect.gen(function*() {
      const roleRepository = yield* RoleRepository

      const rolesOf = (access: ProjectAccess, editor: Editor, flags: ReadonlyArray<FlagOwnership>, wanted: boolean) =>
        editor.user === null || !wanted
          ? Effect.succeed<ReadonlyArray<CallerRole>>([])
          : roleRepository.callerRoles(access.organization_id, editor.user, flags.map((flag) => flag.id))

      const of = (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<FlagOwnership>) => {
        const editor = editorOf(actor, access)
        return Effect.map(rolesOf(access, editor, flags, needsRoles(editor, flags)), (roles) => editRightsOf(editor, roles))
      }

      const withProject = (actor: Actor, access: ProjectAccess, flags: ReadonlyArray<FlagOwnership>) => {
        const editor = editorOf(actor, access)
        return Effect.map(rolesOf(access, editor, flags, !isAdministrator(editor)), (roles) => ({
          ...editRightsOf(editor, roles),
          editsEveryFlag: editsEveryFlag(editor, roles)
        }))
      }

      return FlagCallerRights.of({ of, withProject })
    })
  )
}
