import { Context, Effect, Layer, Option, Schema, Struct } from "effect"
import type { Actor } from "../../auth/actor.ts"
import { RoleRepository } from "../../roles/repository.ts"
import { type Body, type BodyError, decodeBody } from "../../shared/body.ts"
import { NotFound, orNotFound, PermissionDenied, ValidationError } from "../../shared/errors.ts"
import { rule } from "../../shared/fields.ts"
import { canonicalUuid, parseSerial, type RoleAccessId, type RoleId } from "../../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../../shared/page.ts"
import { pythonType } from "../../shared/validation.ts"
import { FlagLookup } from "../lookup.ts"
import type { FlagView, StoredFlag } from "../model.ts"
import { FlagRenderer } from "../renderer.ts"
import { FlagCallerRights } from "./caller-rights.ts"
import type { EditRights } from "./edit-rights.ts"
import type { FlagRoleAccess, FlagRoleAccessRecord } from "./model.ts"
import { FlagRoleAccessRepository } from "./role-access-repository.ts"

const ROLES_REFUSED = "You can't edit roles for this feature flag."

/** A role named by its id: any text here (an unknown one is refused once looked up), anything else "Incorrect type". */
const RoleReference = Schema.Unknown.check(
  rule<unknown>("incorrect_type", (value) =>
    typeof value === "string" ? undefined : `Incorrect type. Expected pk value, received ${pythonType(value)}.`)
)
const decodeCreate = decodeBody(Schema.Struct({ role_id: Schema.NullOr(RoleReference) }))

const roleMissing = (value: string) =>
  new ValidationError({ code: "does_not_exist", detail: `Invalid pk "${value}" - object does not exist.`, attr: "role_id" })

/** A flag's role access: the roles whose members may edit it. */
export class FlagRoleAccessService extends Context.Service<FlagRoleAccessService, {
  readonly list: (actor: Actor, project: string, flag: string, query: ListQuery) => Effect.Effect<Page<FlagRoleAccess>, PermissionDenied | NotFound>
  readonly create: (
    actor: Actor,
    project: string,
    flag: string,
    body: Body
  ) => Effect.Effect<FlagRoleAccess, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly retrieve: (actor: Actor, project: string, flag: string, id: string) => Effect.Effect<FlagRoleAccess, PermissionDenied | NotFound>
  readonly destroy: (actor: Actor, project: string, flag: string, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
}>()("hedgerow/FlagRoleAccessService") {
  static readonly layerNoDeps = Layer.effect(
    FlagRoleAccessService,
    Effect.gen(function*() {
      const lookup = yield* FlagLookup
      const rights = yield* FlagCallerRights
      const renderer = yield* FlagRenderer
      const grants = yield* FlagRoleAccessRepository
      const roles = yield* RoleRepository

      const render = (rendered: FlagView, rows: ReadonlyArray<FlagRoleAccessRecord>) =>
        Effect.gen(function*() {
          if (rows.length === 0) return []
          const views = yield* roles.views([...new Set(rows.map((row) => row.role_id))])
          const byId = new Map(views.map((role) => [role.id as string, role]))
          return rows.map((row): FlagRoleAccess => ({
            id: row.id,
            feature_flag: rendered,
            role: byId.get(row.role_id)!,
            ...Struct.omit(row, ["id", "feature_flag_id", "role_id"])
          }))
        })

      const requireManage = (callerRights: EditRights, flag: StoredFlag) =>
        callerRights.canManageRoles(flag) ? Effect.void : Effect.fail(new PermissionDenied({ detail: ROLES_REFUSED }))

      const findRow = (flag: StoredFlag, id: string) => {
        const rowId = parseSerial(id)
        return rowId === undefined
          ? Effect.fail(NotFound.default())
          : grants.find(flag.id, rowId as RoleAccessId).pipe(Effect.flatMap(orNotFound))
      }

      const list = Effect.fn("FlagRoleAccessService.list")(function*(actor: Actor, project: string, flag: string, query: ListQuery) {
        const found = yield* lookup.flag(actor, project, flag, "feature_flag:read")
        const page = yield* grants.list(found.flag.id, pageRequest(query))
        const rendered = yield* renderer.renderOne(found.access, found.flag, yield* rights.of(actor, found.access, [found.flag]))
        return { ...page, results: yield* render(rendered, page.results) }
      })

      const create = Effect.fn("FlagRoleAccessService.create")(function*(actor: Actor, project: string, flag: string, body: Body) {
        const found = yield* lookup.flag(actor, project, flag, "feature_flag:write")
        const callerRights = yield* rights.of(actor, found.access, [found.flag])
        yield* requireManage(callerRights, found.flag)
        const { role_id } = yield* decodeCreate(body)
        if (role_id === null) return yield* ValidationError.field("role_id", "This field may not be null.", "null")
        const reference = role_id as string
        // Roles belong to an organization: another organization's role is as unknown as a made-up one.
        const id = canonicalUuid(reference)
        const role = id === undefined ? Option.none() : yield* roles.findById(id as RoleId)
        if (Option.isNone(role) || role.value.organization_id !== found.access.organization_id) {
          return yield* roleMissing(reference)
        }
        const row = yield* grants.insert(found.flag.id, role.value.id).pipe(
          Effect.catchTag("FlagRoleAccessTaken", () =>
            Effect.fail(new ValidationError({
              code: "unique",
              detail: "The fields feature_flag, role must make a unique set.",
              attr: null
            })))
        )
        // The new grant changes nothing the answer shows: whoever may grant access edits the flag anyway.
        const rendered = yield* renderer.renderOne(found.access, found.flag, callerRights)
        return (yield* render(rendered, [row]))[0]!
      })

      const retrieve = Effect.fn("FlagRoleAccessService.retrieve")(function*(actor: Actor, project: string, flag: string, id: string) {
        const found = yield* lookup.flag(actor, project, flag, "feature_flag:read")
        const row = yield* findRow(found.flag, id)
        const rendered = yield* renderer.renderOne(found.access, found.flag, yield* rights.of(actor, found.access, [found.flag]))
        return (yield* render(rendered, [row]))[0]!
      })

      const destroy = Effect.fn("FlagRoleAccessService.destroy")(function*(actor: Actor, project: string, flag: string, id: string) {
        const found = yield* lookup.flag(actor, project, flag, "feature_flag:write")
        yield* requireManage(yield* rights.of(actor, found.access, [found.flag]), found.flag)
        const row = yield* findRow(found.flag, id)
        yield* grants.remove(row.id)
      })

      return FlagRoleAccessService.of({ list, create, retrieve, destroy })
    })
  )
}
