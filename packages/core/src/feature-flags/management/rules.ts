import { Context, Effect, Layer, Option } from "effect"
import { CohortRepository } from "../../cohorts/repository.ts"
import { DashboardRepository } from "../../dashboards/repository.ts"
import { failIfAny, ValidationError } from "../../shared/errors.ts"
import type { FeatureFlagId, ProjectId } from "../../shared/ids.ts"
import type { JsonRecord } from "../../shared/fields.ts"
import { decodeInput } from "../../shared/validation.ts"
import { cohortIdsIn, type FlagConditions, parseConditions } from "../conditions.ts"
import type { StoredFlag } from "../model.ts"
import { FlagRepository } from "../repository.ts"
import { dependencyError } from "./dependencies.ts"
import { conditionRulesError, isBehavioralDefinition, payloadsError, propertyTypesError, regexRulesError } from "./filter-rules.ts"
import { CreateHead, FiltersPart, type FlagUpdateBody, MiddlePart, TailPart, UpdateHead } from "./input.ts"
import { keyCharactersError, keyTaken } from "./key.ts"

/** A body that passed the rules: the fields it gives, each as its rule read it. */
export type FlagInput = FlagUpdateBody
/** The same for a new flag, which always has a key. */
export type CreateInput = FlagInput & { readonly key: string }

const decodeCreateHead = decodeInput(CreateHead)
const decodeUpdateHead = decodeInput(UpdateHead)
const decodeFilters = decodeInput(FiltersPart)
const decodeMiddle = decodeInput(MiddlePart)
const decodeTail = decodeInput(TailPart)

/**
 * A flag body's checks in PostHog's order: each field's own rules, those that read stored data
 * included, before the next field's. They only read: the writer checks again, in its transaction, what
 * a concurrent write could change.
 */
export class FlagRules extends Context.Service<FlagRules, {
  /**
   * A new flag's rules but one: that no live flag holds its key is left to the insert, which cannot take a
   * held key (FlagWriter.create says which holder it met). Reading the holder first costs every create a
   * statement; it is read only when a later rule fails, so that a held key is still the error reported.
   */
  readonly create: (project: ProjectId, body: unknown) => Effect.Effect<CreateInput, ValidationError>
  readonly update: (project: ProjectId, current: StoredFlag, body: unknown) => Effect.Effect<FlagInput, ValidationError>
  /** The flag-dependency rules alone (existing, active, no cycle through the flag keyed `key`), for a re-check under lock. */
  readonly dependencies: (project: ProjectId, conditions: FlagConditions, key: string) => Effect.Effect<void, ValidationError>
}>()("hedgerow/FlagRules") {
  static readonly layerNoDeps = Layer.effect(
    FlagRules,
    Effect.gen(function*() {
      const flags = yield* FlagRepository
      const cohorts = yield* CohortRepository
      const dashboards = yield* DashboardRepository

      /** Uniqueness among the project's live flags (other than `self`). */
      const keyFree = (project: ProjectId, value: string, self: FeatureFlagId | null) =>
        Effect.flatMap(flags.holderOfKey(project, value), (holder) =>
          Option.isSome(holder) && !holder.value.deleted && holder.value.id !== self ? Effect.fail(keyTaken()) : Effect.void)

      /** Uniqueness, then the characters. */
      const key = (project: ProjectId, value: string, self: FeatureFlagId | null) =>
        Effect.andThen(keyFree(project, value, self), failIfAny(keyCharactersError(value)))

      // Person flags only: PostHog does not follow dependencies of group flags.
      const dependencies = (project: ProjectId, conditions: FlagConditions, currentKey: string) =>
        conditions.aggregation_group_type_index === null && currentKey !== ""
          ? Effect.flatMap(dependencyError(conditions, currentKey, (ids) => flags.dependencyNodes(project, ids)), failIfAny)
          : Effect.void

      const filters = (project: ProjectId, value: JsonRecord, currentKey: string) =>
        Effect.gen(function*() {
          const conditions = parseConditions(value)
          if (conditions instanceof ValidationError) return yield* conditions
          yield* failIfAny(propertyTypesError(conditions))
          yield* dependencies(project, conditions, currentKey)
          const wanted = [...new Set(cohortIdsIn(conditions))]
          const found = wanted.length === 0 ? [] : yield* cohorts.briefs(project, wanted)
          const facts = new Map(found.map((cohort) => [
            cohort.id as number,
            { name: cohort.name, behavioral: isBehavioralDefinition(cohort.filters) || isBehavioralDefinition(cohort.groups) }
          ]))
          yield* failIfAny(conditionRulesError(conditions, facts))
          yield* failIfAny(payloadsError(conditions))
          return conditions
        })

      // Whether the flag can be evaluated comes after every field's rules, as PostHog checks it.
      const evaluable = (conditions: FlagConditions | undefined) =>
        conditions === undefined ? Effect.void : failIfAny(regexRulesError(conditions))

      // Each id must name a dashboard of this project.
      const analyticsDashboards = (project: ProjectId, ids: ReadonlyArray<number> | undefined) =>
        Effect.gen(function*() {
          if (ids === undefined || ids.length === 0) return
          const existing = new Set<number>(yield* dashboards.existing(project, ids))
          const missing = ids.find((id) => !existing.has(id))
          if (missing !== undefined) {
            return yield* new ValidationError({
              code: "does_not_exist",
              detail: `Invalid pk "${missing}" - object does not exist.`,
              attr: "analytics_dashboards"
            })
          }
        })

      const rest = (project: ProjectId, body: unknown) =>
        Effect.gen(function*() {
          const middle = yield* decodeMiddle(body)
          yield* analyticsDashboards(project, middle.analytics_dashboards)
          const tail = yield* decodeTail(body)
          return { ...middle, ...tail }
        })

      const afterKey = (project: ProjectId, head: typeof CreateHead.Type, body: unknown) =>
        Effect.gen(function*() {
          yield* failIfAny(keyCharactersError(head.key))
          const { filters: given } = yield* decodeFilters(body)
          // A PostHog client omits filters for an open flag; a filters object must say what its groups are.
          const conditions = given === undefined ? undefined : yield* filters(project, given, head.key)
          const others = yield* rest(project, body)
          yield* evaluable(conditions)
          return { ...head, ...(given === undefined ? {} : { filters: given }), ...others } as CreateInput
        })

      const create = Effect.fn("FlagRules.create")(function*(project: ProjectId, body: unknown) {
        const head = yield* decodeCreateHead(body)
        // A held key comes before any later rule's error, as it would were it read first.
        return yield* afterKey(project, head, body).pipe(
          Effect.catchTag("ValidationError", (error) => Effect.andThen(keyFree(project, head.key, null), Effect.fail(error)))
        )
      })

      const update = Effect.fn("FlagRules.update")(function*(project: ProjectId, current: StoredFlag, body: unknown) {
        const head = yield* decodeUpdateHead(body)
        if (head.key !== undefined) yield* key(project, head.key, current.id)
        const { filters: given } = yield* decodeFilters(body)
        // PostHog ignores a PATCH whose filters lack `groups` and keeps the current ones.
        const kept = given !== undefined && "groups" in given ? given : undefined
        const conditions = kept === undefined ? undefined : yield* filters(project, kept, current.key)
        const others = yield* rest(project, body)
        yield* evaluable(conditions)
        return { ...head, ...(kept === undefined ? {} : { filters: kept }), ...others } as FlagInput
      })

      return FlagRules.of({ create, update, dependencies })
    })
  )
}
