import { Context, Effect, Layer, Option } from "effect"
import type { ActivityInsert } from "../../activity/repository.ts"
import { activityEntry } from "../../activity/writer.ts"
import type { Actor } from "../../auth/actor.ts"
import type { ProjectAccess } from "../../auth/access.ts"
import { type DashboardInsert, DashboardRepository } from "../../dashboards/repository.ts"
import { enrichedTiles, retargetTiles, usageDashboardDescription, usageDashboardName, usageTiles } from "../../dashboards/usage.ts"
import type { Body, BodyError } from "../../shared/body.ts"
import { Conflict, type NotFound, orNotFound, type PermissionDenied, ValidationError } from "../../shared/errors.ts"
import type { FeatureFlagId, ProjectId, UserId } from "../../shared/ids.ts"
import { Transactions } from "../../shared/transactions.ts"
import { type EditRights, requireEdit } from "../access/edit-rights.ts"
import { conditionsOf } from "../conditions.ts"
import { dependenciesOf } from "../derived.ts"
import type { FoundFlag } from "../lookup.ts"
import type { StoredFlag } from "../model.ts"
import { type FlagRef, FlagRepository, type FlagUpdate } from "../repository.ts"
import { FLAG_ACTIVITY_SCOPE, flagChanges, withVersion } from "./changes.ts"
import { coalescedFlagWrites } from "./coalesced-writes.ts"
import { newFlagColumns, nextFlagColumns } from "./columns.ts"
import { keyTaken, originalKeyOf, tombstoneKey } from "./key.ts"
import { type FlagInput, FlagRules } from "./rules.ts"

/** PostHog lists at most five dependent flags, then says how many more. */
const flagList = (refs: ReadonlyArray<FlagRef>) => {
  const named = refs.slice(0, 5).map((ref) => `${ref.key} (ID: ${ref.id})`)
  if (refs.length > 5) named.push(`and ${refs.length - 5} more`)
  return named.join(", ")
}

/** What a PATCH makes of a flag: its key, its new columns and the entry that records them. */
interface FlagChange {
  readonly key: string
  readonly columns: FlagUpdate
  readonly entry: ActivityInsert
}

const userOf = (actor: Actor): UserId | null => (actor._tag === "User" ? actor.user.id : null)

/**
 * Flag creation and change, each atomic: the flag with its usage dashboard and its activity entry in one
 * statement, inside one transaction with its tombstones and checks when it reads or moves other rows. A
 * failure anywhere leaves no trace of any of them.
 */
export class FlagWriter extends Context.Service<FlagWriter, {
  readonly create: (actor: Actor, access: ProjectAccess, body: unknown) => Effect.Effect<StoredFlag, ValidationError>
  /** Refuses a flag that `rights` do not let the caller edit, before the body is read. */
  readonly update: (
    actor: Actor,
    found: FoundFlag,
    rights: EditRights,
    body: Body
  ) => Effect.Effect<StoredFlag, PermissionDenied | NotFound | ValidationError | Conflict | BodyError>
  /**
   * A new usage dashboard for the flag, pointed at by `usage_dashboard` (inside the caller's transaction);
   * `enriched` adds the enriched-analytics insights at once.
   */
  readonly makeUsageDashboard: (actor: Actor, flag: StoredFlag, enriched: boolean) => Effect.Effect<StoredFlag>
}>()("hedgerow/FlagWriter") {
  static readonly layerNoDeps = Layer.effect(
    FlagWriter,
    Effect.gen(function*() {
      const flags = yield* FlagRepository
      const dashboards = yield* DashboardRepository
      const rules = yield* FlagRules
      const transactions = yield* Transactions
      const coalesced = yield* coalescedFlagWrites<FlagChange>({
        apply: (current, change) => ({ ...current, ...change.columns }),
        write: (base, changes) =>
          transactions.single(flags.updateUnchanged(base, changes.at(-1)!.columns, changes.map((change) => change.entry)))
      })

      /**
       * Writes that read or lock other flags than their own take turns per project, always before any row
       * lock: dependency rules (two PATCHes drawing the two halves of a cycle, a dependency disabled while
       * a flag starts to use it, re-checked inside the transaction) and key moves (two flags taking each
       * other's deleted keys would otherwise lock each other's rows in opposite orders).
       */
      const takeTurn = (project: ProjectId) => transactions.serialize(`hedgerow:flags:${project}`)

      /** A key held by a soft-deleted flag is freed by renaming that flag to its tombstone key. */
      const claimKey = (project: ProjectId, key: string, self: FeatureFlagId | null) =>
        Effect.gen(function*() {
          const holder = yield* flags.holderOfKey(project, key)
          if (Option.isNone(holder) || holder.value.id === self) return
          if (!holder.value.deleted) return yield* keyTaken()
          // Another flag's row is about to be locked (an update took its turn before its own row).
          yield* takeTurn(project)
          yield* flags.renameKey(holder.value.id, tombstoneKey(key, holder.value.id))
        })

      const makeUsageDashboard = (actor: Actor, flag: StoredFlag, enriched: boolean) =>
        Effect.gen(function*() {
          const dashboard = yield* dashboards.insert(usageDashboard(actor, flag.project_id, flag.key, enriched))
          yield* flags.setUsageDashboard(flag.id, dashboard.id)
          return { ...flag, usage_dashboard_id: dashboard.id }
        })

      const create = Effect.fn("FlagWriter.create")(function*(actor: Actor, access: ProjectAccess, body: unknown) {
        const project = access.project.id
        const input = yield* rules.create(project, body)
        const columns = newFlagColumns(input, userOf(actor))
        const conditions = conditionsOf(columns.filters)
        const insert = flags.create(
          { ...columns, project_id: project, creation_context: input.creation_context ?? "feature_flags", created_by_id: userOf(actor) },
          input._should_create_usage_dashboard === false ? null : usageDashboard(actor, project, columns.key, false),
          activityEntry(actor, {
            organization_id: access.organization_id,
            project_id: project,
            activity: "created",
            scope: FLAG_ACTIVITY_SCOPE,
            // The store puts the new flag's id here.
            item_id: "",
            name: columns.key,
            changes: null
          })
        )
        const dependent = dependenciesOf(conditions).length > 0
        // The insert is one statement; it needs a transaction only beside the dependency check or a key move.
        const write = (claim: boolean) =>
          !dependent && !claim ? transactions.single(insert) : transactions.run(Effect.gen(function*() {
            if (dependent) {
              yield* takeTurn(project)
              yield* rules.dependencies(project, conditions, columns.key)
            }
            if (claim) yield* claimKey(project, columns.key, null)
            return yield* insert
          }))
        // The rules leave the key's holder to the insert: a flag holding it makes the second try read it, which
        // refuses a live one (or a racing writer's) and frees a deleted one's key, the write then tried again.
        return yield* write(false).pipe(
          Effect.catchTag("FlagKeyTaken", () => write(true)),
          Effect.catchTag("FlagKeyTaken", () => Effect.fail(keyTaken()))
        )
      })

      /** PostHog refuses to delete or disable a flag other active flags depend on, and to enable one that depends on disabled flags. */
      const dependencyRefusal = (current: StoredFlag, deleting: boolean, active: boolean | undefined) =>
        Effect.gen(function*() {
          if (deleting || (active === false && current.active)) {
            const dependents = yield* flags.dependents(current.project_id, current.id)
            if (dependents.length > 0) {
              const [verb, fix] = deleting ? ["delete", "update or delete"] : ["disable", "update or disable"]
              return yield* ValidationError.field(
                null,
                `Cannot ${verb} this feature flag because other flags depend on it: ${flagList(dependents)}. Please ${fix} the dependent flags first.`
              )
            }
          }
          if (active === true && !current.active) {
            const disabled = yield* flags.disabledAmong(current.project_id, dependenciesOf(conditionsOf(current.filters)))
            if (disabled.length > 0) {
              return yield* ValidationError.field(
                null,
                `Cannot enable this feature flag because it depends on disabled flags: ${flagList(disabled)}. Please enable the dependency flags first.`
              )
            }
          }
        })

      /** What a PATCH makes of `current`: the new columns and the entry that records them, if anything changes. */
      const changeOf = (actor: Actor, access: ProjectAccess, current: StoredFlag, input: FlagInput) => {
        const restoring = current.deleted && input.deleted === false
        const key = input.key ?? (restoring ? originalKeyOf(current.key, current.id) : current.key)
        const next = nextFlagColumns(current, input, key, userOf(actor))
        const changes = flagChanges(current, next)
        // Analytics dashboards are a change PostHog leaves out of the log (only the version bump shows).
        const relinked = next.analytics_dashboards.length !== current.analytics_dashboards.length
        // PostHog writes "updated" only when something changed; nothing is bumped for an empty PATCH.
        if (changes.length === 0 && !relinked) return undefined
        const deletedChange = next.deleted !== current.deleted
        return {
          key,
          columns: { ...next, version: current.version + 1, usage_dashboard_id: current.usage_dashboard_id },
          entry: activityEntry(actor, {
            organization_id: access.organization_id,
            project_id: current.project_id,
            activity: deletedChange ? (next.deleted ? "deleted" : "restored") : "updated",
            scope: FLAG_ACTIVITY_SCOPE,
            item_id: String(current.id),
            name: key,
            changes: withVersion(changes, current.version)
          })
        }
      }

      const update = Effect.fn("FlagWriter.update")(function*(actor: Actor, found: FoundFlag, rights: EditRights, body: Body) {
        const { access, flag } = found
        yield* requireEdit(rights, flag)
        const input = yield* rules.update(access.project.id, flag, yield* body)
        // New filters that depend on other flags are checked again under the project's turn.
        const conditions = input.filters === undefined ? undefined : conditionsOf(input.filters)
        const recheck = conditions !== undefined && dependenciesOf(conditions).length > 0 ? conditions : undefined
        const turn = recheck !== undefined || input.active !== undefined || input.deleted !== undefined || input.key !== undefined

        // A change that reads no other flag is written in one statement against the newest row this process
        // knows, with the changes of the flag that arrived with it, provided the row has not moved on since
        // (its version, and what changes without one); else as below, which also answers a stale `version`.
        if (!turn) {
          const written = yield* coalesced({
            read: flag,
            author: userOf(actor),
            change: (current) =>
              input.version === undefined || input.version === current.version ? changeOf(actor, access, current, input) : undefined
          })
          if (Option.isSome(written)) return written.value
        }

        return yield* transactions.run(Effect.gen(function*() {
          if (turn) yield* takeTurn(access.project.id)
          const current = yield* flags.lock(access.project.id, flag.id).pipe(Effect.flatMap(orNotFound))
          if (recheck !== undefined) yield* rules.dependencies(current.project_id, recheck, current.key)
          yield* dependencyRefusal(current, input.deleted === true, input.active)
          if (input.version !== undefined && input.version !== current.version) {
            return yield* new Conflict({
              detail: `The feature flag was updated by ${current.last_modified_by?.email ?? "another user"} since you started editing it. Please refresh and try again.`
            })
          }
          const change = changeOf(actor, access, current, input)
          if (change === undefined) return current
          const { key } = change
          if (key !== current.key) yield* claimKey(current.project_id, key, current.id)
          if (key !== current.key && current.usage_dashboard_id !== null) {
            const dashboard = yield* dashboards.find(current.project_id, current.usage_dashboard_id)
            const retargeted = Option.isSome(dashboard) ? retargetTiles(dashboard.value.tiles, current.key, key) : null
            if (retargeted !== null) yield* dashboards.setTiles(current.usage_dashboard_id, retargeted)
          }
          return yield* flags.update(current.id, change.columns, change.entry).pipe(
            Effect.catchTag("FlagKeyTaken", () => Effect.fail(keyTaken()))
          )
        }))
      })

      return FlagWriter.of({ create, update, makeUsageDashboard })
    })
  )
}

/** A usage dashboard for the flag `key`; `enriched` adds the enriched-analytics insights at once. */
const usageDashboard = (actor: Actor, project: ProjectId, key: string, enriched: boolean): DashboardInsert => ({
  project_id: project,
  name: usageDashboardName(key),
  description: usageDashboardDescription(key),
  creation_mode: "template",
  tiles: enriched ? [...usageTiles(key), ...enrichedTiles(key)] : usageTiles(key),
  created_by_id: userOf(actor)
})
