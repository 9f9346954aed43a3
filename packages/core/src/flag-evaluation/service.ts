import { randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer, Option, Semaphore } from "effect"
import { Access, type ProjectAccess } from "../auth/access.ts"
import type { Actor } from "../auth/actor.ts"
import { CohortRepository } from "../cohorts/repository.ts"
import type { EvaluationContext } from "../evaluation/context.ts"
import { evaluateFlags } from "../evaluation/evaluate.ts"
import { conditionsOf } from "../feature-flags/conditions.ts"
import { LiveFlags } from "../feature-flags/live/live-flags.ts"
import type { StoredFlag } from "../feature-flags/model.ts"
import { FlagRepository } from "../feature-flags/repository.ts"
import { FlagUsage } from "../feature-flags/usage/last-called.ts"
import { FlagMeter } from "../feature-flags/usage/meter.ts"
import { ProjectGroupTypes } from "../group-types/project-group-types.ts"
import type { Project } from "../projects/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { Freshness } from "../read-model/freshness.ts"
import { READS } from "../read-model/watched.ts"
import { memoized } from "../read-model/memoized.ts"
import { AuthenticationError, NotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { type FeatureFlagId, MAX_SERIAL, parseSerial, type ProjectId } from "../shared/ids.ts"
import type { Scope } from "../shared/scope.ts"
import { holdsLoneSurrogate, holdsNul } from "../shared/text.ts"
import type { FlagsAnswer } from "./answers.ts"
import { definitionsOf } from "./definitions.ts"
import { evaluationReasons } from "./evaluation-reasons.ts"
import { remoteConfigPayload } from "./remote-config.ts"
import { missingDistinctId, readFlagsRequest } from "./request.ts"
import { MAX_IDENTIFIER } from "./request-bounds.ts"
import { requestRuntime, type RuntimeHints, runsIn } from "./runtime.ts"
import { type SdkRemoteConfig, sdkRemoteConfig } from "./sdk-config.ts"
import { type ServerFlag, serverFlags } from "./server-flags.ts"
import type { Definitions, EvaluationReasons, EvaluationReasonsQuery, FlagTestEvaluation } from "./model.ts"
import { type CarriedPatterns, type FlagSnapshot, snapshotOf, withPatternsCompiled } from "./snapshot.ts"
import { listsHolding, loadStaticLists, type StaticListsKey, staticListsKey } from "./static-lists.ts"
import { testEvaluationOf } from "./test-evaluation.ts"

/** Projects whose cohorts are kept in memory at once, as for their flags. */
const MAX_PROJECTS = 64

/** Where a project-scoped evaluation endpoint looks: its project, unless a public token names another. */
export interface ProjectChoice {
  /** The path's project id, or `@current` on the paths without one. */
  readonly project: string
  /**
   * `?token=`, the project's public token, as the SDKs send it: when given, it names the project whatever
   * the path says (PostHog's routing lets a token override the path's project).
   */
  readonly token?: string | undefined
}

export interface DefinitionsRequest extends ProjectChoice {
  /** `send_cohorts`, given with or without a value. */
  readonly sendCohorts: boolean
}

/** PostHog's refusal of a token naming a project the caller is no member of. */
export const NO_PROJECT_ACCESS = "You don't have access to the project."

/**
 * Flag evaluation served from the in-memory read model: a project's live flags (kept fresh row by row),
 * its cohorts and its group types, prepared once per change of any, and the project a public token names.
 */
export class FlagEvaluationService extends Context.Service<FlagEvaluationService, {
  /**
   * The project's flags as evaluation reads them, their patterns compiled; the same object until a flag, a
   * cohort or a group type of the project changes.
   */
  readonly snapshot: (project: ProjectId) => Effect.Effect<FlagSnapshot>
  /** The project whose public token (`api_token`) this is. */
  readonly projectByToken: (token: string) => Effect.Effect<Option.Option<Project>>
  /**
   * The project's flags evaluated in-process for one person, as a server SDK reads them (see
   * `serverFlags`); the active ones among them are marked as called, as `/flags` marks what it answers.
   */
  readonly serverFlags: (project: ProjectId, context: EvaluationContext) => Effect.Effect<ReadonlyMap<string, ServerFlag>>
  /**
   * The project a project-scoped evaluation endpoint serves, after the key's restrictions and scope: a
   * token that names no project is 401, a token's project the caller is no member of 403, as PostHog
   * answers them; the path's project answers as every other project path does.
   */
  readonly projectAccess: (
    actor: Actor,
    choice: ProjectChoice,
    scope: Scope
  ) => Effect.Effect<ProjectAccess, AuthenticationError | PermissionDenied | NotFound>
  /**
   * `/flags`: the body's project token decides the project (none is 401 `no_api_key`, one naming no
   * project 401 `invalid_api_key`), then every active flag that runs in the caller's runtime is
   * evaluated for the body's person, as PostHog's flags service evaluates them. The flags answered are
   * marked as called (FlagUsage).
   */
  readonly flags: (body: unknown, hints: RuntimeHints) => Effect.Effect<FlagsAnswer, AuthenticationError | ValidationError>
  /**
   * `{id or key}/remote_config/`: the `"true"` payload of a remote configuration flag, as stored, or null
   * when it has none (scope feature_flag:read). A flag is named by id when all digits, else by key;
   * none when the project has no such flag or it is not a remote configuration flag (the project itself
   * answers 404 as every project path does). The flag answered is marked as called.
   */
  readonly remoteConfig: (
    actor: Actor,
    choice: ProjectChoice,
    flag: string
  ) => Effect.Effect<Option.Option<unknown>, AuthenticationError | PermissionDenied | NotFound>
  /** `evaluation_reasons`: each flag's value and why, for a distinct id (scope feature_flag:read). */
  readonly evaluationReasons: (
    actor: Actor,
    choice: ProjectChoice,
    query: EvaluationReasonsQuery
  ) => Effect.Effect<EvaluationReasons, AuthenticationError | PermissionDenied | NotFound | ValidationError>
  /**
   * `{id}/test_evaluation/`: the flag evaluated for the body's person (read as `/flags` reads its body)
   * as `/flags?v=2` would answer it, for a person trying the flag out (scope feature_flag:read). Unlike
   * every other evaluation it marks nothing as called: a test is not a use of the flag. A flag of
   * another project, or none, is 404; a deleted one is found and not evaluated.
   */
  readonly testEvaluation: (
    actor: Actor,
    project: string,
    id: string,
    body: Body
  ) => Effect.Effect<FlagTestEvaluation, PermissionDenied | NotFound | ValidationError | BodyError>
  /**
   * `/array/{token}/config`: posthog-js's remote configuration for the project whose public token this
   * is; a token that names no project is 404, as PostHog answers it.
   */
  readonly sdkConfig: (token: string) => Effect.Effect<SdkRemoteConfig, NotFound>
  /** The definitions for local evaluation (scope feature_flag:read). */
  readonly definitions: (
    actor: Actor,
    request: DefinitionsRequest
  ) => Effect.Effect<Definitions, AuthenticationError | PermissionDenied | NotFound>
}>()("hedgerow/FlagEvaluationService") {
  static readonly layerNoDeps = Layer.effect(
    FlagEvaluationService,
    Effect.gen(function*() {
      const access = yield* Access
      const liveFlags = yield* LiveFlags
      const freshness = yield* Freshness
      const cohortRepository = yield* CohortRepository
      const projects = yield* ProjectRepository
      const flagRepository = yield* FlagRepository
      const usage = yield* FlagUsage
      const meter = yield* FlagMeter
      const groupTypes = yield* ProjectGroupTypes

      // The same list while no cohort changed, which is what keeps a snapshot.
      const cohortsOf = memoized(
        freshness,
        (project: ProjectId) => Effect.map(cohortRepository.live(project), Option.some),
        { name: "cohorts", reads: READS.cohorts, maxEntries: MAX_PROJECTS }
      )
      const tokenLookup = memoized(freshness, projects.findByToken, { name: "projects_by_token", reads: READS.project })
      // A text longer than any identifier, or holding what no stored text holds, names no project: it is
      // neither looked up nor kept, whichever path (evaluation, events, configuration) brings it.
      const projectByToken = (token: string) =>
        token.length > MAX_IDENTIFIER || holdsNul(token) ? Effect.succeed(Option.none<Project>()) : tokenLookup(token)

      const carried: CarriedPatterns = new Map()
      const compiling = yield* Semaphore.make(1)

      // Untraced: every evaluation asks (see Authentication.authenticate).
      const snapshot = Effect.fnUntraced(function*(project: ProjectId) {
        const flags = yield* liveFlags.of(project)
        const cohorts = yield* cohortsOf(project)
        const made = snapshotOf(project, flags, Option.getOrElse(cohorts, () => []), yield* groupTypes.of(project), carried)
        return made.prepared.patterns.ready ? made : yield* withPatternsCompiled(made, compiling)
      })

      const staticListsOf = memoized(freshness, (key: StaticListsKey) => loadStaticLists(cohortRepository, key), {
        name: "static_cohort_lists",
        reads: READS.staticCohortLists,
        keyOf: staticListsKey,
        maxEntries: MAX_PROJECTS
      })

      /**
       * The static cohorts of the snapshot whose list holds the distinct id, asked only when the project's
       * active flags reach a static cohort, so evaluation itself stays synchronous: from the lists held in
       * memory, or one indexed read when they are too long to hold.
       */
      const membershipsOf = Effect.fnUntraced(function*(held: FlagSnapshot, distinctId: string) {
        if (held.staticCohorts.length === 0) return undefined
        const live = Option.getOrElse(yield* cohortsOf(held.project), () => [])
        const lists = Option.flatten(Option.map(yield* staticListsOf({ project: held.project, cohorts: held.staticCohorts, live }), Option.fromNullishOr))
        if (Option.isSome(lists)) return listsHolding(lists.value, distinctId)
        // No list holds an id that text cannot store: such an id is in none, unread.
        if (holdsNul(distinctId) || holdsLoneSurrogate(distinctId)) return new Set<number>()
        return new Set(yield* cohortRepository.memberships(distinctId, held.staticCohorts))
      })

      const serverFlagsOf = Effect.fnUntraced(function*(project: ProjectId, context: EvaluationContext) {
        const held = yield* snapshot(project)
        const flags = serverFlags(held, { ...context, cohort_members: yield* membershipsOf(held, context.distinct_id) })
        const used: Array<FeatureFlagId> = []
        for (const key of flags.keys()) {
          const { flag } = held.prepared.byKey.get(key)!
          if (flag.active) used.push(flag.id)
        }
        usage.record(yield* Clock.currentTimeMillis, used)
        meter.evaluated(project, used)
        return flags
      })

      const projectAccess = Effect.fnUntraced(function*(actor: Actor, choice: ProjectChoice, scope: Scope) {
        // An empty `?token=` is no token.
        if (choice.token === undefined || choice.token === "") return yield* access.project(actor, choice.project, scope)
        const found = yield* projectByToken(choice.token)
        if (Option.isNone(found)) return yield* AuthenticationError.incorrectCredentials()
        // The project exists, so the only 404 left is tenancy, which a token answers with 403.
        return yield* access.project(actor, String(found.value.id), scope).pipe(
          Effect.catchTag("NotFound", () => Effect.fail(new PermissionDenied({ detail: NO_PROJECT_ACCESS })))
        )
      })

      const definitions = Effect.fnUntraced(function*(actor: Actor, request: DefinitionsRequest) {
        const { project } = yield* projectAccess(actor, request, "feature_flag:read")
        return definitionsOf(yield* snapshot(project.id), request.sendCohorts)
      })

      const flags = Effect.fnUntraced(function*(body: unknown, hints: RuntimeHints) {
        const request = readFlagsRequest(body)
        if (request instanceof ValidationError) return yield* request
        if (request.token === undefined || request.token === "") return yield* AuthenticationError.noProjectToken()
        const project = yield* projectByToken(request.token)
        if (Option.isNone(project)) return yield* AuthenticationError.invalidProjectToken()
        const requestId = randomUUID()
        const evaluatedAt = yield* Clock.currentTimeMillis
        if (request.disable_flags) return { flags: [], errorsWhileComputingFlags: false, requestId, evaluatedAt }
        if (request.distinct_id === undefined) return yield* missingDistinctId()
        const held = yield* snapshot(project.value.id)
        const { prepared } = held
        const evaluation = evaluateFlags(prepared, {
          distinct_id: request.distinct_id,
          cohort_members: yield* membershipsOf(held, request.distinct_id),
          device_id: request.device_id,
          anon_distinct_id: request.anon_distinct_id,
          person_properties: request.person_properties,
          groups: request.groups,
          group_properties: request.group_properties,
          only: request.flag_keys,
          now: new Date(evaluatedAt)
        })
        const runtime = requestRuntime(request.evaluation_runtime, hints)
        const answered: Array<FlagsAnswer["flags"][number]> = []
        const used: Array<FeatureFlagId> = []
        for (let i = 0; i < evaluation.results.length; i++) {
          const result = evaluation.results[i]!
          const { flag } = prepared.flags[i]!
          // The service evaluates only active flags, and only those for the caller's runtime.
          if (result !== null && flag.active && runsIn(flag.evaluation_runtime, runtime)) {
            answered.push(result)
            used.push(flag.id)
          }
        }
        usage.record(evaluatedAt, used)
        meter.evaluated(project.value.id, used)
        return { flags: answered, errorsWhileComputingFlags: evaluation.errorsWhileComputingFlags, requestId, evaluatedAt }
      })

      /** A flag by id (digits) or key: live ones from memory, deleted ones (still readable) from the store. */
      const flagOf = (project: ProjectId, ref: string) =>
        Effect.flatMap(snapshot(project), ({ prepared }): Effect.Effect<Option.Option<StoredFlag>> => {
          if (/^\d+$/.test(ref)) {
            const id = Number(ref)
            if (id < 1 || id > MAX_SERIAL) return Effect.succeed(Option.none())
            const live = prepared.byId.get(id)
            return live !== undefined ? Effect.succeed(Option.some(live.flag)) : flagRepository.find(project, id as FeatureFlagId)
          }
          const live = prepared.byKey.get(ref)
          if (live !== undefined) return Effect.succeed(Option.some(live.flag))
          if (holdsNul(ref)) return Effect.succeed(Option.none())
          return Effect.flatMap(flagRepository.holderOfKey(project, ref), Option.match({
            onNone: () => Effect.succeed(Option.none()),
            onSome: (holder) => flagRepository.find(project, holder.id)
          }))
        })

      const remoteConfig = Effect.fn("FlagEvaluationService.remoteConfig")(function*(actor: Actor, choice: ProjectChoice, ref: string) {
        const { project } = yield* projectAccess(actor, choice, "feature_flag:read")
        const found = yield* flagOf(project.id, ref)
        if (Option.isNone(found) || !found.value.is_remote_configuration) return Option.none()
        // An SDK fetches a remote configuration's payload to use it: that is the flag's call.
        usage.record(yield* Clock.currentTimeMillis, [found.value.id])
        meter.evaluated(project.id, [found.value.id])
        return Option.some(remoteConfigPayload(conditionsOf(found.value.filters).payloads))
      })

      const reasons = Effect.fn("FlagEvaluationService.evaluationReasons")(function*(
        actor: Actor,
        choice: ProjectChoice,
        query: EvaluationReasonsQuery
      ) {
        const { project } = yield* projectAccess(actor, choice, "feature_flag:read")
        const held = yield* snapshot(project.id)
        const members = query.distinct_id === undefined || query.distinct_id === "" ? undefined : yield* membershipsOf(held, query.distinct_id)
        const answered = evaluationReasons(held, query, members)
        if (answered instanceof ValidationError) return yield* answered
        return answered
      })

      const testEvaluation = Effect.fn("FlagEvaluationService.testEvaluation")(function*(actor: Actor, project: string, id: string, body: Body) {
        const { project: found } = yield* access.project(actor, project, "feature_flag:read")
        const flagId = parseSerial(id)
        if (flagId === undefined) return yield* NotFound.default()
        const held = yield* snapshot(found.id)
        // A deleted flag is not live, but it is still the project's: found, and not evaluated.
        if (!held.prepared.byId.has(flagId) && Option.isNone(yield* flagRepository.find(found.id, flagId as FeatureFlagId))) {
          return yield* NotFound.default()
        }
        const request = readFlagsRequest(yield* body)
        if (request instanceof ValidationError) return yield* request
        const distinctId = request.distinct_id
        if (distinctId === undefined || distinctId === "") return yield* ValidationError.field("distinct_id", "This field is required.", "required")
        const members = yield* membershipsOf(held, distinctId)
        return testEvaluationOf(held, flagId, { ...request, distinct_id: distinctId }, members, new Date(yield* Clock.currentTimeMillis))
      })

      const sdkConfig = Effect.fnUntraced(function*(token: string) {
        const project = yield* projectByToken(token)
        if (Option.isNone(project)) return yield* NotFound.default()
        const { prepared } = yield* snapshot(project.value.id)
        return sdkRemoteConfig(token, prepared.flags.some(({ flag }) => flag.active))
      })

      return FlagEvaluationService.of({
        snapshot,
        sdkConfig,
        projectByToken,
        serverFlags: serverFlagsOf,
        testEvaluation,
        projectAccess,
        flags,
        remoteConfig,
        evaluationReasons: reasons,
        definitions
      })
    })
  )
}
