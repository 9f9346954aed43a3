// The module alone: the package's index also loads its Redis client, many modules more at start-up.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  type BootstrapOptions,
  type Bootstrapped,
  type EvaluationContext,
  FlagEvaluationService,
  InternalError,
  type OrganizationId,
  type ProjectId,
  ProjectService,
  type ServerFlag,
  systemActor,
  WebhookWorker
} from "@hedgerow/core"
import type { StoreOptions } from "@hedgerow/store"
import { Context, Data, Effect, Layer, Option } from "effect"
import { HttpRouter } from "effect/http"
import * as App from "../app.ts"
import type { LineSink } from "../log/line-writer.ts"
import * as ServerLog from "../log/server-log.ts"
import { noteArrival } from "../middleware/request-log.ts"
import type { LogSettings } from "../log/settings.ts"
import { SHUTTING_DOWN } from "../answers/envelope.ts"
import * as SdkLane from "../sdk-lane/lane.ts"
import { bootstrapIfEmpty } from "../server.ts"
import { serverSettingsFromConfig } from "../settings/server-settings.ts"
import { mountAt, type NodeListener, normalizeBasePath, sendFailure } from "./mount.ts"

/** How an application opens Hedgerow inside itself. */
export interface EmbedOptions {
  /** Where the store lives: `{ dataDir }` (embedded, on disk), `{ databaseUrl, poolSize? }` (PostgreSQL), `{}` (in memory). */
  readonly store: StoreOptions
  /** The path the HTTP API answers under on the application's server, e.g. "/hedgerow"; "/" for all of it. */
  readonly basePath: string
  /**
   * The project whose flags `flags` reads, by id or by its public token (`api_token`, `phc_…`). Without
   * one, the store's first project (the one a bootstrap makes).
   */
  readonly project?: { readonly id: number } | { readonly apiToken: string } | undefined
  /**
   * An empty store is bootstrapped, as `hedgerow serve` does: an organization, its owner, a project and a
   * personal API key with scope `*`, returned once as `bootstrapped`. Options name them; `false` leaves
   * an empty store empty (and, with no project to read, refuses to open).
   */
  readonly bootstrap?: boolean | BootstrapOptions | undefined
  /** The request log, in `hedgerow serve`'s format, on stdout or `sink`; absent, nothing is logged. */
  readonly log?: (LogSettings & { readonly sink?: LineSink | undefined }) | undefined
}

/** The person (and groups) flags are evaluated for, named as posthog-node names them. */
export interface FlagOptions {
  readonly personProperties?: Readonly<Record<string, unknown>> | undefined
  /** Group type to group key. */
  readonly groups?: Readonly<Record<string, string | number>> | undefined
  /** Group type to that group's properties. */
  readonly groupProperties?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined
}

/** A flag's value: off, on, or its variant's key. */
export type FlagValue = boolean | string

export type JsonValue = string | number | boolean | null | ReadonlyArray<JsonValue> | { readonly [key: string]: JsonValue }

/**
 * A project's flags read in-process, with posthog-node's answers (its `isFeatureEnabled`,
 * `getFeatureFlag`, `getFeatureFlagPayload` and `getAllFlags`). Every flag of the project that runs on a
 * server (`evaluation_runtime` `server` or `all`) is known; an inactive one is off. A flag that is not
 * known (no such key, deleted, client-only, or in a dependency cycle) is `undefined`.
 */
export interface EmbeddedFlags {
  /** Whether the flag is on (a variant counts as on). */
  readonly isEnabled: (key: string, distinctId: string, options?: FlagOptions) => Promise<boolean | undefined>
  /** The flag's value: `false` off, `true` on, or the variant's key. */
  readonly getVariant: (key: string, distinctId: string, options?: FlagOptions) => Promise<FlagValue | undefined>
  /** The payload of the value the flag takes, parsed from its JSON; `null` when it has none or is off. */
  readonly getPayload: (key: string, distinctId: string, options?: FlagOptions) => Promise<JsonValue | undefined>
  /** Every known flag's value, by key. */
  readonly getAll: (distinctId: string, options?: FlagOptions) => Promise<Record<string, FlagValue>>
}

/** The same reads as Effects, for an Effect application. */
export type EffectEmbeddedFlags = {
  readonly [K in keyof EmbeddedFlags]: (...args: Parameters<EmbeddedFlags[K]>) => Effect.Effect<Awaited<ReturnType<EmbeddedFlags[K]>>>
}

/** The project `flags` reads. */
export interface EmbeddedProject {
  readonly id: ProjectId
  readonly name: string
  /** Its public token, what posthog-js and the other SDKs send to `/flags`. */
  readonly api_token: string
  readonly organization_id: OrganizationId
}

/** Hedgerow opened in an application: its API as a request listener, and its flags in-process. */
export interface EmbeddingShape {
  /**
   * The HTTP API (management and the SDKs' evaluation) for the application's `node:http` server: a
   * request below the base path is served with the base path taken off; any other goes to `next`, or is
   * answered 404 when there is none.
   */
  readonly handler: NodeListener
  readonly flags: EffectEmbeddedFlags
  readonly project: EmbeddedProject
  /** What bootstrapping an empty store made at this opening, its key shown only here; none otherwise. */
  readonly bootstrapped: Option.Option<Bootstrapped>
}

/** Why Hedgerow could not open in the application. */
export class EmbedError extends Data.TaggedError("EmbedError")<{ readonly message: string }> {}

const basePathOf = (basePath: string) => {
  const normalized = normalizeBasePath(basePath)
  return normalized === undefined
    ? Effect.fail(new EmbedError({ message: `basePath must be a path such as "/hedgerow", not ${JSON.stringify(basePath)}` }))
    : Effect.succeed(normalized)
}

export class Embedding extends Context.Service<Embedding, EmbeddingShape>()("hedgerow/Embedding") {}

const contextOf = (distinctId: string, options: FlagOptions | undefined, only?: ReadonlyArray<string>): EvaluationContext => {
  // A plain JavaScript caller gets no type check: evaluating for "undefined" would answer for nobody.
  if (typeof distinctId !== "string" || distinctId === "") throw new TypeError("distinctId must be a non-empty string")
  return {
    distinct_id: distinctId,
    person_properties: options?.personProperties,
    groups: options?.groups,
    group_properties: options?.groupProperties,
    only
  }
}

const embeddedFlags = (evaluation: FlagEvaluationService["Service"], project: ProjectId): EffectEmbeddedFlags => {
  const read = (distinctId: string, options: FlagOptions | undefined, only?: ReadonlyArray<string>) =>
    Effect.suspend(() => {
      const context = contextOf(distinctId, options, only)
      return evaluation.serverFlags(project, context)
    })
  const one = (key: string, distinctId: string, options?: FlagOptions): Effect.Effect<ServerFlag | undefined> =>
    Effect.map(read(distinctId, options, [key]), (flags) => flags.get(key))
  return {
    isEnabled: (key, distinctId, options) => Effect.map(one(key, distinctId, options), (flag) => flag && flag.value !== false),
    getVariant: (key, distinctId, options) => Effect.map(one(key, distinctId, options), (flag) => flag?.value),
    getPayload: (key, distinctId, options) => Effect.map(one(key, distinctId, options), (flag) => flag?.payload as JsonValue | undefined),
    getAll: (distinctId, options) => Effect.map(read(distinctId, options), valuesByKey)
  }
}

/**
 * Each flag's value under its key, as own properties. A key may be any name: one the object inherits
 * (`__proto__`, `toString`, ...) is defined rather than assigned, since assigning would set the prototype,
 * or throw where the application has frozen `Object.prototype`.
 */
const valuesByKey = (flags: ReadonlyMap<string, ServerFlag>): Record<string, FlagValue> => {
  const values: Record<string, FlagValue> = {}
  for (const [key, flag] of flags) {
    if (key in values) Object.defineProperty(values, key, { value: flag.value, enumerable: true, writable: true, configurable: true })
    else values[key] = flag.value
  }
  return values
}

/** The project the options name, else the first one; refused when there is none. */
const chosenProject = (choice: EmbedOptions["project"]) =>
  Effect.gen(function*() {
    if (choice !== undefined && "apiToken" in choice) {
      const found = yield* FlagEvaluationService.use((evaluation) => evaluation.projectByToken(choice.apiToken))
      if (Option.isSome(found)) return found.value
      return yield* new EmbedError({ message: "no project has the api_token given as `project`" })
    }
    if (choice !== undefined) {
      return yield* ProjectService.use((projects) => projects.retrieveVisible(systemActor, String(choice.id))).pipe(
        Effect.map((view) => ({ ...view, organization_id: view.organization })),
        Effect.catchTag("NotFound", () => Effect.fail(new EmbedError({ message: `no project has the id ${choice.id}` })))
      )
    }
    const first = yield* ProjectService.use((projects) => projects.first(systemActor))
    if (Option.isSome(first)) return { ...first.value, organization_id: first.value.organization }
    return yield* new EmbedError({
      message: "the store holds no project: open it with `bootstrap`, or bootstrap it with `hedgerow admin bootstrap`"
    })
  })

/**
 * The project `flags` reads, and what a bootstrap made. A project named is looked up before anything is
 * written (an empty store has none), and a bootstrap comes last, so that no failure after it loses the
 * key it shows once.
 */
const projectAndBootstrap = (options: EmbedOptions) =>
  Effect.gen(function*() {
    if (options.project !== undefined) return { found: yield* chosenProject(options.project), bootstrapped: Option.none<Bootstrapped>() }
    const bootstrapped = options.bootstrap === false
      ? Option.none<Bootstrapped>()
      : yield* bootstrapIfEmpty(options.bootstrap === true || options.bootstrap === undefined ? {} : options.bootstrap)
    const made = Option.map(bootstrapped, (made) => ({ id: made.project_id }))
    return { found: yield* chosenProject(Option.getOrUndefined(made)), bootstrapped }
  })

const make = (options: EmbedOptions, basePath: string) =>
  Effect.gen(function*() {
    // The same routes `hedgerow serve` serves, with its router settings, handed to Node's adapter as a
    // request listener rather than bound to a server of Hedgerow's own.
    const app = yield* HttpRouter.toHttpEffect(App.routesAt(basePath)).pipe(
      Effect.provideService(HttpRouter.RouterConfig, App.routerConfig)
    )
    const listener = yield* NodeHttpServer.makeHandler(app, { scope: yield* Effect.scope })
    const lane = yield* SdkLane.make.pipe(Effect.provide(serverSettingsFromConfig(basePath)))
    // Closing ends the request fibers with the scope; a request arriving later is refused, as a stopping server refuses it.
    let open = true
    yield* Effect.addFinalizer(() => Effect.sync(() => (open = false)))
    const handler = mountAt(basePath, (request, response) => {
      noteArrival(request)
      if (!open) sendFailure(response, new InternalError({ detail: SHUTTING_DOWN }), 503)
      else if (!lane(request, response)) listener(request, response)
    })

    const { found, bootstrapped } = yield* projectAndBootstrap(options)
    const project: EmbeddedProject = { id: found.id, name: found.name, api_token: found.api_token, organization_id: found.organization_id }
    const evaluation = yield* FlagEvaluationService
    return Embedding.of({ handler, flags: embeddedFlags(evaluation, project.id), project, bootstrapped })
  })

/**
 * Hedgerow inside an Effect application: the Embedding service over core's services and the store. A
 * base path that is not a path is refused before the store is opened.
 */
export const layer = (options: EmbedOptions) =>
  Layer.unwrap(Effect.map(basePathOf(options.basePath), (basePath) =>
    Layer.merge(
      Layer.effect(Embedding, make(options, basePath)).pipe(
        Layer.provide(options.log === undefined ? Layer.empty : ServerLog.layer(options.log, options.log.sink)),
        // What Node's adapter gives the routes on a server of its own (file bodies, ETags).
        Layer.provide(NodeHttpServer.layerHttpServices)
      ),
      // The mounted API takes webhooks, so the application sends them, as a server does.
      WebhookWorker.layerNoDeps
    ).pipe(Layer.provideMerge(App.servicesLayer(options.store)))))
