import { Context, Effect, Layer, Option, Result } from "effect"
import { Access, type ProjectAccess } from "../../auth/access.ts"
import type { Actor } from "../../auth/actor.ts"
import { lookupIn } from "../../cohorts/graph.ts"
import { cohortBodyOf } from "../../cohorts/input.ts"
import { cohortsInMakingOrder } from "../../cohorts/order.ts"
import { cohortProperties } from "../../cohorts/properties.ts"
import { CohortRepository } from "../../cohorts/repository.ts"
import { CohortWriter } from "../../cohorts/writer.ts"
import { type Body, type BodyError, bodyOf, decodeBody } from "../../shared/body.ts"
import { type NotFound, PermissionDenied, ValidationError } from "../../shared/errors.ts"
import type { FeatureFlagId, ProjectId } from "../../shared/ids.ts"
import { integerOf } from "../../shared/python.ts"
import { Transactions } from "../../shared/transactions.ts"
import { FlagCallerRights } from "../access/caller-rights.ts"
import { requireEdit } from "../access/edit-rights.ts"
import { cohortIdsIn, conditionsOf } from "../conditions.ts"
import { dependenciesOf } from "../derived.ts"
import type { FlagView, StoredFlag } from "../model.ts"
import { FlagWriter } from "../management/writer.ts"
import { rewriteReferences } from "../references.ts"
import { FlagRenderer } from "../renderer.ts"
import { FlagRepository } from "../repository.ts"
import { type CopyFailure, CopyFlagsBody, type CopyFlagsResult } from "./input.ts"

/** PostHog's answers, word for word. */
export const SOURCE_MISSING = "Feature flag to copy does not exist."
export const SOURCE_NOT_EDITABLE = "You do not have permission to copy this flag."
export const TARGET_MISSING = "Project not found."
export const TARGET_NOT_EDITABLE = "You do not have permission to copy flags to this project."
/** This service copies one flag; a flag's dependencies are matched by key in each target instead. */
export const DEPENDENCIES_NOT_COPIED =
  "Copying a flag's dependencies is not supported: create the flags it depends on in each target first (they are matched by key)."

const decode = decodeBody(CopyFlagsBody)

/** The fields of the source flag a copy writes, as PostHog copies them. */
const copiedFields = (flag: StoredFlag, filters: unknown, disable: boolean) => ({
  key: flag.key,
  name: flag.name,
  filters,
  active: disable ? false : flag.active,
  deleted: false,
  ensure_experience_continuity: flag.ensure_experience_continuity,
  is_remote_configuration: flag.is_remote_configuration,
  has_encrypted_payloads: flag.has_encrypted_payloads,
  evaluation_runtime: flag.evaluation_runtime
})

/** What a target's refusal says in `failed`: the message the same write would answer on its own. */
const messageOf = (error: { readonly _tag: string; readonly detail: string }) =>
  error._tag === "NotFound" ? TARGET_MISSING : error.detail

/**
 * PostHog's copy of a flag to other projects of the organization. The source must be a live flag the
 * caller may edit; each target is then written in one transaction of its own (the cohorts the flag
 * reaches, made there when no live cohort has their name, then the flag, created or changed in place),
 * and a target that fails is reported in `failed` with nothing of it written, while the others go on.
 */
export class FlagCopyService extends Context.Service<FlagCopyService, {
  readonly copy: (
    actor: Actor,
    organization: string,
    body: Body
  ) => Effect.Effect<CopyFlagsResult, PermissionDenied | NotFound | ValidationError | BodyError>
}>()("hedgerow/FlagCopyService") {
  static readonly layerNoDeps = Layer.effect(
    FlagCopyService,
    Effect.gen(function*() {
      const access = yield* Access
      const flags = yield* FlagRepository
      const cohorts = yield* CohortRepository
      const cohortWriter = yield* CohortWriter
      const writer = yield* FlagWriter
      const rights = yield* FlagCallerRights
      const renderer = yield* FlagRenderer
      const transactions = yield* Transactions

      const liveFlag = (project: ProjectId, key: string) =>
        flags.holderOfKey(project, key).pipe(
          Effect.flatMap((holder) =>
            Option.isNone(holder) || holder.value.deleted ? Effect.succeedNone : flags.find(project, holder.value.id)
          )
        )

      /** What every target receives from the source, read once: the cohorts it reaches and the keys of the flags it depends on. */
      const sourceParts = (project: ProjectId, flag: StoredFlag) =>
        Effect.gen(function*() {
          const conditions = conditionsOf(flag.filters)
          // A deleted cohort is not brought along: a reference to one stays as it is, for the target's rules to judge.
          const live = (yield* cohorts.everyBrief(project)).filter((cohort) => !cohort.deleted)
          const reached = cohortsInMakingOrder(cohortIdsIn(conditions), lookupIn(live))
          const descriptions = new Map<number, string>()
          for (const cohort of reached) {
            const full = yield* cohorts.find(project, cohort.id)
            if (Option.isSome(full)) descriptions.set(cohort.id, full.value.description)
          }
          const dependencyKeys = new Map<number, string>()
          for (const id of dependenciesOf(conditions)) {
            const found = yield* flags.find(project, id as FeatureFlagId)
            if (Option.isSome(found)) dependencyKeys.set(id, found.value.key)
          }
          return { reached, descriptions, dependencyKeys }
        })
      type SourceParts = Effect.Success<ReturnType<typeof sourceParts>>

      /**
       * The source's cohorts in the target, made in an order where each names only cohorts already there:
       * a live cohort of the same name is used as it is (PostHog matches cohorts by name and never changes
       * the target's), else a new one is made with the source's definition, its references moved.
       */
      const cohortsIn = (actor: Actor, target: ProjectAccess, parts: SourceParts) =>
        Effect.gen(function*() {
          const existing = yield* cohorts.everyBrief(target.project.id)
          const moved = new Map<number, number>()
          const movedValue = (value: unknown) => {
            const id = integerOf(value)
            return id === null ? undefined : moved.get(id)
          }
          for (const cohort of parts.reached) {
            const same = cohort.name === null ? undefined : existing.find((other) => !other.deleted && other.name === cohort.name)
            if (same !== undefined) {
              moved.set(cohort.id, same.id)
              continue
            }
            const properties = cohort.is_static ? undefined : cohortProperties(cohort)
            const made = yield* cohortWriter.create(actor, target, cohortBodyOf({
              name: cohort.name,
              description: parts.descriptions.get(cohort.id) ?? "",
              is_static: cohort.is_static,
              ...(properties === undefined ? {} : { filters: { properties: rewriteReferences(properties, { cohort: movedValue, flag: () => undefined }) } })
            }))
            moved.set(cohort.id, made.id)
          }
          return movedValue
        })

      /** The flags the source depends on, by their ids in the target: the live flags there with the same keys. */
      const dependenciesIn = (target: ProjectId, parts: SourceParts) =>
        Effect.gen(function*() {
          const moved = new Map<number, number>()
          for (const [id, key] of parts.dependencyKeys) {
            const found = yield* liveFlag(target, key)
            if (Option.isSome(found)) moved.set(id, found.value.id)
          }
          // A dependency without a flag of its key there keeps its id, which the flag's rules refuse there.
          return (key: unknown) => {
            const id = integerOf(key)
            const there = id === null ? undefined : moved.get(id)
            return there === undefined ? undefined : typeof key === "number" ? there : String(there)
          }
        })

      /** The flag written in one target, in one transaction, and the caller's rights over it there. */
      const copyTo = (actor: Actor, target: ProjectAccess, flag: StoredFlag, parts: SourceParts, disable: boolean) =>
        transactions.run(Effect.gen(function*() {
          const cohort = yield* cohortsIn(actor, target, parts)
          const dependency = yield* dependenciesIn(target.project.id, parts)
          const fields = copiedFields(flag, rewriteReferences(flag.filters, { cohort, flag: dependency }), disable)
          const current = yield* liveFlag(target.project.id, flag.key)
          if (Option.isNone(current)) {
            const created = yield* writer.create(actor, target, fields)
            return { flag: created, rights: yield* rights.of(actor, target, [created]) }
          }
          const callerRights = yield* rights.of(actor, target, [current.value])
          yield* requireEdit(callerRights, current.value).pipe(
            Effect.mapError(() => new PermissionDenied({ detail: TARGET_NOT_EDITABLE }))
          )
          const updated = yield* writer.update(actor, { access: target, flag: current.value }, callerRights, bodyOf(fields))
          return { flag: updated, rights: callerRights }
        }))

      const copy = Effect.fn("FlagCopyService.copy")(function*(actor: Actor, organization: string, body: Body) {
        const orgAccess = yield* access.organization(actor, organization, "feature_flag:write")
        const input = yield* decode(body)
        if (input.copy_dependencies === true) return yield* ValidationError.field("copy_dependencies", DEPENDENCIES_NOT_COPIED)

        // A project of another organization, or none, holds no flag the caller may copy.
        const sourceProject = yield* access.projectIn(actor, orgAccess, String(input.from_project)).pipe(
          Effect.catchTag("NotFound", () => Effect.fail(ValidationError.field(null, SOURCE_MISSING)))
        )
        const sourceAccess: ProjectAccess = { ...orgAccess, project: sourceProject }
        const source = yield* liveFlag(sourceProject.id, input.feature_flag_key)
        if (Option.isNone(source)) return yield* ValidationError.field(null, SOURCE_MISSING)
        const flag = source.value
        yield* requireEdit(yield* rights.of(actor, sourceAccess, [flag]), flag).pipe(
          Effect.mapError(() => new PermissionDenied({ detail: SOURCE_NOT_EDITABLE }))
        )
        const parts = yield* sourceParts(sourceProject.id, flag)

        const success: Array<FlagView> = []
        const failed: Array<CopyFailure> = []
        for (const id of input.target_project_ids) {
          const outcome = yield* Effect.result(Effect.gen(function*() {
            const project = yield* access.projectIn(actor, orgAccess, String(id))
            const target: ProjectAccess = { ...orgAccess, project }
            const written = yield* copyTo(actor, target, flag, parts, input.disable_copied_flag === true)
            return yield* renderer.renderOne(target, written.flag, written.rights)
          }))
          if (Result.isSuccess(outcome)) success.push(outcome.success)
          else failed.push({ project_id: id, error_message: messageOf(outcome.failure) })
        }
        return { success, failed }
      })

      return FlagCopyService.of({ copy })
    })
  )
}
