/**
 * Hedgerow's core, as an application uses it: the services and their layer, the resources' schemas, the
 * inputs they accept, and the errors they answer with. What a store implements (repositories,
 * transactions, mail and DNS ports) is `@hedgerow/core/ports`.
 */
export * as CoreServices from "./services.ts"
export * from "./shared/errors.ts"
export * from "./shared/ids.ts"
export * from "./shared/time.ts"
export * from "./shared/page.ts"
export * from "./shared/body.ts"
export { decodeInput, toValidationError } from "./shared/validation.ts"
export { type Scope, SCOPE_OBJECTS, type ScopeObject } from "./shared/scope.ts"
export * as Fields from "./shared/fields.ts"
export * from "./auth/actor.ts"
export { Authentication } from "./auth/authenticate.ts"
export { type RateLimits, RateLimitSettings } from "./auth/throttle.ts"
export { CURRENT } from "./auth/access.ts"
export * from "./setup/bootstrap.ts"
export * from "./users/model.ts"
export * from "./users/service.ts"
export * from "./organizations/model.ts"
export * from "./organizations/service.ts"
export * from "./members/model.ts"
export * from "./members/input.ts"
export * from "./members/service.ts"
export * from "./personal-api-keys/model.ts"
export * from "./personal-api-keys/service.ts"
export * from "./projects/model.ts"
export * from "./projects/service.ts"
export * from "./roles/model.ts"
export * from "./roles/service.ts"
export * from "./batch-exports/model.ts"
export * from "./batch-exports/service.ts"
export * from "./domains/model.ts"
export * from "./domains/input.ts"
export * from "./domains/service.ts"
export * from "./invites/model.ts"
export * from "./invites/input.ts"
export * from "./invites/service.ts"
export * from "./feature-flags/model.ts"
export * from "./feature-flags/input.ts"
export * from "./feature-flags/conditions.ts"
export { FlagListQueryFields } from "./feature-flags/list-query.ts"
export { LiveFlagsBudget } from "./feature-flags/live-flags.ts"
export * from "./feature-flags/service.ts"
export * from "./feature-flags/role-access.ts"
export * from "./feature-flags/actions.ts"
export * from "./feature-flags/access-controls.ts"
export * from "./dashboards/model.ts"
export * from "./cohorts/model.ts"
export * from "./activity/model.ts"
export { cohortDefinitions } from "./evaluation/cohorts.ts"
export type { EvaluationContext } from "./evaluation/context.ts"
export { type DependencyReference, definitionFilters, dependencyReference } from "./evaluation/definitions.ts"
export { evaluateFlags, type FlagResult, type FlagsEvaluation, type FlagValue } from "./evaluation/evaluate.ts"
export {
  type CohortDefinitions,
  type EvaluatedFlag,
  GROUP_TYPES_BY_INDEX,
  type GroupTypeMapping,
  type PreparedFlags,
  prepareFlags,
  type ProjectData
} from "./evaluation/prepare.ts"
export type { Reason, ReasonCode } from "./evaluation/reasons.ts"
export type { FlagSnapshot } from "./flag-evaluation/snapshot.ts"
export * from "./flag-evaluation/model.ts"
export * from "./flag-evaluation/service.ts"
