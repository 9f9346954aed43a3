import { Context, Effect, Layer } from "effect"
import type { Actor } from "../../auth/actor.ts"
import type { NotFound, PermissionDenied } from "../../shared/errors.ts"
import { grants, type Scope } from "../../shared/scope.ts"
import { FlagLookup } from "../lookup.ts"
import { FlagRenderer } from "../renderer.ts"
import { FlagCallerRights } from "./caller-rights.ts"
import { accessLevelName, isAdministrator } from "./edit-rights.ts"
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

/** The fields every answer shares: no access-control rows, and PostHog's levels with their default. */
const fields = {
  access_controls: [],
  available_access_levels: [...ACCESS_LEVELS],
  default_access_level: "editor"
}

/**
 * The flag with the fields of PostHog's newer access-control system. This service keeps no rows of that
 * system (`access_controls` is always empty): the role rules decide, so the levels shown are what they
 * grant, on the flag for `access_controls` and on the project's flags as a whole for
 * `global_access_controls`. Administrators and owners may change levels, and for one flag its creator too.
 */
export class FlagAccessControlsService extends Context.Service<FlagAccessControlsService, {
  readonly forFlag: (actor: Actor, project: string, id: string) => Effect.Effect<FlagAccessControls, PermissionDenied | NotFound>
  readonly global: (actor: Actor, project: string, id: string) => Effect.Effect<FlagAccessControls, PermissionDenied | NotFound>
}>()("hedgerow/FlagAccessControlsService") {
  static readonly layerNoDeps = Layer.effect(
    FlagAccessControlsService,
    Effect.gen(function*() {
      const lookup = yield* FlagLookup
      const rights = yield* FlagCallerRights
      const renderer = yield* FlagRenderer

      const forFlag = Effect.fn("FlagAccessControls.forFlag")(function*(actor: Actor, project: string, id: string) {
        const { access, flag } = yield* lookup.flag(actor, project, id, readScopeOf(actor))
        const callerRights = yield* rights.of(actor, access, [flag])
        const { editor } = callerRights
        return {
          ...(yield* renderer.renderOne(access, flag, callerRights)),
          ...fields,
          user_can_edit_access_levels: isAdministrator(editor) || flag.created_by_id === editor.user
        }
      })

      const global = Effect.fn("FlagAccessControls.global")(function*(actor: Actor, project: string, id: string) {
        const { access, flag } = yield* lookup.flag(actor, project, id, readScopeOf(actor))
        const callerRights = yield* rights.withProject(actor, access, [flag])
        return {
          ...(yield* renderer.renderOne(access, flag, callerRights)),
          ...fields,
          user_access_level: accessLevelName(callerRights.editsEveryFlag),
          user_can_edit_access_levels: isAdministrator(callerRights.editor)
        }
      })

      return FlagAccessControlsService.of({ forFlag, global })
    })
  )
}
