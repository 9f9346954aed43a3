import { Context, Effect, Layer, Option, Schema } from "effect"
import { Access } from "../auth/access.ts"
import type { Actor } from "../auth/actor.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { NotFound, type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { maxLength, minLength } from "../shared/fields.ts"
import type { ProjectId } from "../shared/ids.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { GroupTypeChoice, GroupTypeColumns, GroupTypeCreate, GroupTypeMetadataRows, GroupTypeNames } from "./input.ts"
import { GROUP_TYPE_NAME_MAX, type GroupType, type GroupTypeView, MAX_GROUP_TYPES, toGroupTypeView } from "./model.ts"
import { ProjectGroupTypes } from "./project-group-types.ts"
import { type GroupTypeMetadata, GroupTypeRepository } from "./repository.ts"

const decodeCreate = decodeBody(GroupTypeCreate)
const decodeRows = decodeBody(GroupTypeMetadataRows)
const decodeChoice = decodeInput(GroupTypeChoice)
const decodeNames = decodeInput(GroupTypeNames)
const decodeColumns = decodeInput(GroupTypeColumns)
/** A name an event may register: as the SDK sent it (untrimmed, since SDKs match names exactly), as the column holds it. */
const decodeRegistered = decodeInput(Schema.String.check(minLength(1), maxLength(GROUP_TYPE_NAME_MAX)))

/** PostHog's words for an index no group type of the project holds. */
const groupTypeNotFound = () => new NotFound({ detail: "Group type not found" })
const nameTaken = () => ValidationError.field("group_type", "There is already a group type with this name.", "unique")
const noFreeIndex = () => ValidationError.field(null, `A project can have at most ${MAX_GROUP_TYPES} group types.`)

/** A path's group type index: digits naming 0 to 4, else nothing, which answers 404 as an unknown index does. */
const indexOf = (text: string): number | undefined =>
  /^\d{1,2}$/.test(text) && Number(text) < MAX_GROUP_TYPES ? Number(text) : undefined

/** What registering a name found: the group type holding it, and whether this call made it. */
interface Registered {
  readonly groupType: GroupType
  readonly created: boolean
}

/**
 * A project's group types: PostHog's `groups_types` endpoints (scope `group:read` / `group:write`),
 * creation through the API, and registration by the events that name them.
 */
export class GroupTypeService extends Context.Service<GroupTypeService, {
  /** `GET …/groups_types/`: the project's group types by index, a plain list as PostHog answers it. */
  readonly list: (actor: Actor, project: string) => Effect.Effect<ReadonlyArray<GroupTypeView>, PermissionDenied | NotFound>
  /**
   * `POST …/groups_types/` `{"group_type": name}`: the name takes the lowest free index, so that flags
   * can target a group type before any event names it. A name the project has, or a sixth, is 400.
   */
  readonly create: (
    actor: Actor,
    project: string,
    body: Body
  ) => Effect.Effect<GroupTypeView, PermissionDenied | NotFound | ValidationError | BodyError>
  /**
   * `PATCH …/groups_types/update_metadata/`: a list of `{group_type_index, name_singular?, name_plural?}`,
   * applied in order and written together, or not at all; answers the list afterwards.
   */
  readonly updateMetadata: (
    actor: Actor,
    project: string,
    body: Body
  ) => Effect.Effect<ReadonlyArray<GroupTypeView>, PermissionDenied | NotFound | ValidationError | BodyError>
  /** `PUT …/groups_types/set_default_columns/` `{group_type_index, default_columns}`: answers the group type. */
  readonly setDefaultColumns: (
    actor: Actor,
    project: string,
    body: Body
  ) => Effect.Effect<GroupTypeView, PermissionDenied | NotFound | ValidationError | BodyError>
  /**
   * `DELETE …/groups_types/{group_type_index}/`: the index is free again, and the next name registered
   * may take it. Flags on the index stay as they are; until a group type holds it, they have no group
   * type to read, so evaluation answers them off (`no_group_type`) and SDKs leave them to `/flags`.
   */
  readonly destroy: (actor: Actor, project: string, index: string) => Effect.Effect<void, PermissionDenied | NotFound>
  /**
   * For the events pipeline: the index of the group type with this name, registering it at the lowest
   * free index when the project has none; none when all five are taken or the name cannot be one (empty,
   * over 400 characters, holding a NUL). A name the project has, and a project that has five, are
   * answered from memory, without a query.
   */
  readonly register: (project: ProjectId, name: string) => Effect.Effect<Option.Option<number>>
}>()("hedgerow/GroupTypeService") {
  static readonly layerNoDeps = Layer.effect(
    GroupTypeService,
    Effect.gen(function*() {
      const access = yield* Access
      const repository = yield* GroupTypeRepository
      const known = yield* ProjectGroupTypes
      const transactions = yield* Transactions

      /**
       * Inside one transaction. Another writer may take the free index, or the name, between reading and
       * writing it (the unique indexes refuse the second), so each miss reads the group types again, in
       * one statement: the name is there, or every index is taken, or one is still free to try. Every
       * miss means one more index taken, so at most five misses lead anywhere.
       */
      const add = (project: ProjectId, name: string) =>
        Effect.gen(function*() {
          for (let attempt = 0; attempt <= MAX_GROUP_TYPES; attempt++) {
            const inserted = yield* repository.insertAtFreeIndex(project, name, MAX_GROUP_TYPES)
            if (Option.isSome(inserted)) return Option.some<Registered>({ groupType: inserted.value, created: true })
            const current = yield* repository.list(project)
            const existing = current.find((groupType) => groupType.group_type === name)
            if (existing !== undefined) return Option.some<Registered>({ groupType: existing, created: false })
            if (current.length >= MAX_GROUP_TYPES) break
          }
          return Option.none<Registered>()
        })

      const list = Effect.fn("GroupTypeService.list")(function*(actor: Actor, project: string) {
        const { project: found } = yield* access.project(actor, project, "group:read")
        return (yield* known.of(found.id)).map(toGroupTypeView)
      })

      const create = Effect.fn("GroupTypeService.create")(function*(actor: Actor, project: string, body: Body) {
        const { project: found } = yield* access.project(actor, project, "group:write")
        const { group_type } = yield* decodeCreate(body)
        const added = yield* transactions.run(add(found.id, group_type))
        if (Option.isNone(added)) return yield* noFreeIndex()
        if (!added.value.created) return yield* nameTaken()
        return toGroupTypeView(added.value.groupType)
      })

      /** The project's group type at the index a body names, locked for the change; 404 as PostHog when none. */
      const chosen = (current: ReadonlyArray<GroupType>, input: unknown) =>
        Effect.flatMap(decodeChoice(input), ({ group_type_index }) => {
          const groupType = current.find((held) => held.group_type_index === group_type_index)
          return groupType === undefined ? Effect.fail(groupTypeNotFound()) : Effect.succeed(groupType)
        })

      const updateMetadata = Effect.fn("GroupTypeService.updateMetadata")(function*(actor: Actor, project: string, body: Body) {
        const { project: found } = yield* access.project(actor, project, "group:write")
        const rows = yield* decodeRows(body)
        return yield* transactions.run(Effect.gen(function*() {
          const current = yield* repository.listForUpdate(found.id)
          // Rows are read in order, each as PostHog checks it (which group type, then its fields); a
          // later row for the same group type builds on an earlier one, and each is written once.
          const changed = new Map<number, GroupTypeMetadata>()
          for (const row of rows) {
            const groupType = yield* chosen(current, row)
            const names = yield* decodeNames(row)
            const before = changed.get(groupType.group_type_index) ?? groupType
            changed.set(groupType.group_type_index, {
              name_singular: names.name_singular === undefined ? before.name_singular : names.name_singular,
              name_plural: names.name_plural === undefined ? before.name_plural : names.name_plural,
              default_columns: before.default_columns
            })
          }
          for (const [index, metadata] of changed) yield* repository.update(found.id, index, metadata)
          return (yield* repository.list(found.id)).map(toGroupTypeView)
        }))
      })

      const setDefaultColumns = Effect.fn("GroupTypeService.setDefaultColumns")(function*(actor: Actor, project: string, body: Body) {
        const { project: found } = yield* access.project(actor, project, "group:write")
        const input = yield* body
        return yield* transactions.run(Effect.gen(function*() {
          const groupType = yield* chosen(yield* repository.listForUpdate(found.id), input)
          const { default_columns } = yield* decodeColumns(input)
          const { name_singular, name_plural } = groupType
          const updated = yield* repository.update(found.id, groupType.group_type_index, { name_singular, name_plural, default_columns })
          return toGroupTypeView(Option.getOrElse(updated, () => groupType))
        }))
      })

      const destroy = Effect.fn("GroupTypeService.destroy")(function*(actor: Actor, project: string, index: string) {
        const { project: found } = yield* access.project(actor, project, "group:write")
        const wanted = indexOf(index)
        if (wanted === undefined) return yield* groupTypeNotFound()
        const deleted = yield* transactions.single(repository.delete(found.id, wanted))
        if (!deleted) return yield* groupTypeNotFound()
      })

      // Untraced: an event of a group calls it, and nearly always finds the name in memory.
      const register = Effect.fnUntraced(function*(project: ProjectId, name: string) {
        const held = yield* known.of(project)
        const existing = held.find((groupType) => groupType.group_type === name)
        if (existing !== undefined) return Option.some(existing.group_type_index)
        if (held.length >= MAX_GROUP_TYPES || Option.isNone(yield* Effect.option(decodeRegistered(name)))) return Option.none()
        const added = yield* transactions.run(add(project, name))
        return Option.map(added, ({ groupType }) => groupType.group_type_index)
      })

      return GroupTypeService.of({ list, create, updateMetadata, setDefaultColumns, destroy, register })
    })
  )
}
