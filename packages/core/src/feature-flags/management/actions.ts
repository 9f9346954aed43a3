import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Actor } from "../../auth/actor.ts"
import type { StaticCohortCreated } from "../../cohorts/model.ts"
import { CohortRepository } from "../../cohorts/repository.ts"
import { toCohortView } from "../../cohorts/view.ts"
import { DashboardRepository } from "../../dashboards/repository.ts"
import { enrichedTiles, hasEnrichedTiles } from "../../dashboards/usage.ts"
import { type NotFound, type PermissionDenied, ValidationError } from "../../shared/errors.ts"
import { Transactions } from "../../shared/transactions.ts"
import { FlagCallerRights } from "../access/caller-rights.ts"
import { requireEdit } from "../access/edit-rights.ts"
import { FlagLookup } from "../lookup.ts"
import type { ActionSuccess } from "../model.ts"
import { FlagWriter } from "./writer.ts"

/** A moment as PostHog writes it in the cohort's name: `YYYY-MM-DD HH:MM:SS`, in UTC. */
const secondsText = (millis: number) => new Date(millis).toISOString().slice(0, 19).replace("T", " ")

/**
 * The flag's POST actions: a usage dashboard, its enrichment, and a static cohort. They change what
 * surrounds the flag, so they need the right to edit it. As in PostHog, their bodies are not read.
 */
export class FlagActions extends Context.Service<FlagActions, {
  readonly dashboard: (actor: Actor, project: string, id: string) => Effect.Effect<ActionSuccess, PermissionDenied | NotFound>
  readonly enrichUsageDashboard: (actor: Actor, project: string, id: string) => Effect.Effect<ActionSuccess, PermissionDenied | NotFound | ValidationError>
  readonly createStaticCohort: (actor: Actor, project: string, id: string) => Effect.Effect<StaticCohortCreated, PermissionDenied | NotFound>
}>()("hedgerow/FlagActions") {
  static readonly layerNoDeps = Layer.effect(
    FlagActions,
    Effect.gen(function*() {
      const lookup = yield* FlagLookup
      const rights = yield* FlagCallerRights
      const writer = yield* FlagWriter
      const dashboards = yield* DashboardRepository
      const cohorts = yield* CohortRepository
      const transactions = yield* Transactions

      const editable = (actor: Actor, project: string, id: string) =>
        Effect.gen(function*() {
          const found = yield* lookup.flag(actor, project, id, "feature_flag:write")
          yield* requireEdit(yield* rights.of(actor, found.access, [found.flag]), found.flag)
          return found
        })

      const dashboard = Effect.fn("FeatureFlagActions.dashboard")(function*(actor: Actor, project: string, id: string) {
        const { flag } = yield* editable(actor, project, id)
        // As in PostHog, every call makes a new dashboard; the enriched insights join it when there is data.
        yield* transactions.run(writer.makeUsageDashboard(actor, flag, flag.has_enriched_analytics))
        return { success: true } as const
      })

      const enrichUsageDashboard = Effect.fn("FeatureFlagActions.enrichUsageDashboard")(function*(actor: Actor, project: string, id: string) {
        const { flag } = yield* editable(actor, project, id)
        const usage = flag.usage_dashboard_id === null ? Option.none() : yield* dashboards.find(flag.project_id, flag.usage_dashboard_id)
        if (Option.isNone(usage) || usage.value.deleted) return yield* ValidationError.field(null, "Usage dashboard not found")
        if (hasEnrichedTiles(usage.value.tiles)) return yield* ValidationError.field(null, "Usage dashboard already has enriched data")
        // `has_enriched_analytics` is the signal that enriched data exists: no analytics engine here to ask.
        if (!flag.has_enriched_analytics) {
          return yield* ValidationError.field(null, "No enriched analytics available for this feature flag")
        }
        const tiles = Array.isArray(usage.value.tiles) ? usage.value.tiles : []
        yield* dashboards.setTiles(usage.value.id, [...tiles, ...enrichedTiles(flag.key)])
        return { success: true } as const
      })

      const createStaticCohort = Effect.fn("FeatureFlagActions.createStaticCohort")(function*(actor: Actor, project: string, id: string) {
        const { flag } = yield* editable(actor, project, id)
        const now = yield* Clock.currentTimeMillis
        // PostHog fills it with the persons the flag is on for; this service keeps none, so it starts
        // complete and empty, and its distinct ids are added to it like any static cohort's.
        const cohort = yield* cohorts.insert({
          project_id: flag.project_id,
          name: `Users with feature flag ${flag.key} enabled at ${secondsText(now)}`,
          description: "",
          groups: [],
          filters: null,
          is_static: true,
          is_calculating: false,
          count: 0,
          created_by_id: actor._tag === "User" ? actor.user.id : null
        })
        return { cohort: toCohortView(cohort) }
      })

      return FlagActions.of({ dashboard, enrichUsageDashboard, createStaticCohort })
    })
  )
}
