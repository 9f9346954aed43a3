import {
  FlagAccessControlsService,
  FlagActions,
  FlagEvaluationService,
  FlagService,
  type FlagView,
  type PageEnvelope,
  toEnvelope,
  toNumberedEnvelope
} from "@hedgerow/core"
import { Effect, Option } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"
import { flagJson, flagPageJson } from "./flag-text.ts"

/**
 * No remote configuration by that name: PostHog's 404 carries no envelope, and its body is JSON's
 * nothing (`null`), which posthog-node's getRemoteConfigPayload reads as no payload, as it reads
 * every answer as JSON whatever its status.
 */
const NO_REMOTE_CONFIG = answer<unknown>(404, {}, "null")

export const featureFlags = bindGroup("featureFlags", {
  list: ({ actor, params, query, url }) =>
    FlagService.use((s) => s.list(actor, params.project_id, query)).pipe(
      Effect.map((page) => answer<PageEnvelope<FlagView>>(200, {}, flagPageJson(toEnvelope(page, url))))
    ),
  create: ({ actor, params, body }) =>
    FlagService.use((s) => s.create(actor, params.project_id, body)).pipe(
      Effect.map((flag) => answer<FlagView>(201, {}, flagJson(flag)))
    ),
  projectActivity: ({ actor, params, query, url }) =>
    FlagService.use((s) => s.projectActivity(actor, params.project_id, query)).pipe(
      Effect.map((page) => toNumberedEnvelope(page, url))
    ),
  evaluationReasons: ({ actor, params, query }) =>
    FlagEvaluationService.use((s) =>
      s.evaluationReasons(actor, { project: params.project_id, token: query.token }, { distinct_id: query.distinct_id, groups: query.groups })
    ),
  testEvaluation: ({ actor, params, body }) =>
    FlagEvaluationService.use((s) => s.testEvaluation(actor, params.project_id, params.id, body)),
  remoteConfig: ({ actor, params, query }) =>
    FlagEvaluationService.use((s) => s.remoteConfig(actor, { project: params.project_id, token: query.token }, params.id)).pipe(
      Effect.map(Option.getOrElse(() => NO_REMOTE_CONFIG))
    ),
  retrieve: ({ actor, params }) =>
    FlagService.use((s) => s.retrieve(actor, params.project_id, params.id)).pipe(
      Effect.map((flag) => answer<FlagView>(200, {}, flagJson(flag)))
    ),
  update: ({ actor, params, body }) =>
    FlagService.use((s) => s.update(actor, params.project_id, params.id, body)).pipe(
      Effect.map((flag) => answer<FlagView>(200, {}, flagJson(flag)))
    ),
  destroy: ({ actor, params }) => FlagService.use((s) => s.destroy(actor, params.project_id, params.id)),
  status: ({ actor, params }) => FlagService.use((s) => s.status(actor, params.project_id, params.id)),
  activity: ({ actor, params, query, url }) =>
    FlagService.use((s) => s.activity(actor, params.project_id, params.id, query)).pipe(
      Effect.map((page) => toNumberedEnvelope(page, url))
    ),
  accessControls: ({ actor, params }) => FlagAccessControlsService.use((s) => s.forFlag(actor, params.project_id, params.id)),
  globalAccessControls: ({ actor, params }) => FlagAccessControlsService.use((s) => s.global(actor, params.project_id, params.id)),
  createStaticCohort: ({ actor, params }) =>
    FlagActions.use((s) => s.createStaticCohort(actor, params.project_id, params.id)),
  dashboard: ({ actor, params }) => FlagActions.use((s) => s.dashboard(actor, params.project_id, params.id)),
  enrichUsageDashboard: ({ actor, params }) =>
    FlagActions.use((s) => s.enrichUsageDashboard(actor, params.project_id, params.id))
})
