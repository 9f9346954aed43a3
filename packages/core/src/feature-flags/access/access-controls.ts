import { Context, Effect, Layer } from "effect"
import type { Actor } from "../../auth/actor.ts"
import { Level } from "../../organizations/model.ts"
import { AccessLevel } from "../../roles/model.ts"
import { RoleRepository } from "../../roles/repository.ts"
import type { NotFound, PermissionDenied } from "../../shared/errors.ts"
import { grants, type Scope } from "../../shared/scope.ts"
import { accessLevelName } from "./edit-rights.ts"
import { editorOf, FlagReader } from "../lookup.ts"
import { ACCESS_LEVELS, type FlagAccessControls } from "./model.ts"

/**
 * `access_controls` and `global_access_controls` answer keys holding `feature_flag:read` or
 * `access_control:read`. The check uses whichever the key holds, and names `feature_flag:read` when it
 * holds neither.
 */
const readScopeOf = (actor: Actor): Scope =>
  actor._tag === "User" && !grants(actor.key.scopes, "feature_flag:read") && grants(actor.key.scopes, "access_control:read")
    ? "access_control:read"
    : "feature_flag:read"

/**
 * The flag plus PostHog's access-control fields. This service has no per-object access-control
 * rows (`access_controls` is always empty); the legacy role rules decide, so the levels shown are what
 * they grant: on the flag for `access_controls`, project-wide for flags for `global_access_controls`.
 * Who may change levels: administrators and owners, and for one flag also its creator.
 */
export class FlagAccessControlsService extends Context.Service<FlagAccessControlsService, {
  readonly forFlag: (actor: Actor, project: string, id: string) => Effect.Effect<FlagAccessControls, PermissionDenied | NotFound>
  readonly global: (actor: Actor, project: string, id: string) => Effect.Effect<FlagAccessControls, PermissionDenied | NotFound>
}>()("hedgerow/FlagAccessControlsService") {
  static readonly layerNoDeps = Layer.effect(
    FlagAccessControlsService,
    Effect.gen(function*() {
      const reader = yield* FlagReader
      const roleRepository = yield* RoleRepository

      const fields = {
        access_controls: [],
        available_access_levels: [...ACCESS_LEVELS],
        default_access_level: "editor"
      }

      const forFlag = Effect.fn("FlagAccessControls.forFlag")(function*(actor: Actor, project: string, id: string) {
        const { access, flag } = yield* reader.flag(actor, project, id, readScopeOf(actor))
        const rendered = yield* reader.renderOne(actor, access, flag)
        const editor = editorOf(actor, access)
        return {
          ...rendered,
          ...fields,
          user_can_edit_access_levels: editor.user === null || editor.level >= Level.admin || flag.created_by_id === editor.user
        }
      })

      const global = Effect.fn("FlagAccessControls.global")(function*(actor: Actor, project: string, id: string) {
        const { access, flag } = yield* reader.flag(actor, project, id, readScopeOf(actor))
        const rendered = yield* reader.renderOne(actor, access, flag)
        const editor = editorOf(actor, access)
        const admin = editor.user === null || editor.level >= Level.admin
        // Project-wide: the caller's roles without any flag's grants (no roles: the default, can always edit).
        const roles = admin || editor.user === null ? [] : yield* roleRepository.callerRoles(access.organization_id, editor.user, [])
        const editsAll = admin || roles.length === 0 || roles.some((role) => role.level === AccessLevel.canAlwaysEdit)
        return {
          ...rendered,
          ...fields,
          user_access_level: accessLevelName(editsAll),
          user_can_edit_access_levels: admin
        }
      })

      return FlagAccessControlsService.of({ forFlag, global })
    })
  )
}
