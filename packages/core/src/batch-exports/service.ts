import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { ProjectRepository } from "../projects/repository.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { Choice, SerialReference, Text } from "../shared/fields.ts"
import { NotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { type BatchExportId, canonicalUuid, type OrganizationId, type ProjectId } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { type BatchExport, type BatchExportView, toBatchExportView } from "./model.ts"
import { BatchExportRepository } from "./repository.ts"

const decodeCreate = decodeInput(Schema.Struct({
  project_id: SerialReference,
  name: Text({ max: 255 }),
  model: Schema.optionalKey(Choice(["events", "persons"]))
}))

/** The 404 names the export, as PostHog's pause and unpause do. */
const exportNotFound = (id: string) => new NotFound({ detail: `BatchExport ID '${id}' not found.` })

type SwitchPaused = (
  actor: Actor,
  organization: string,
  id: string,
  body: Body
) => Effect.Effect<void, PermissionDenied | NotFound | BodyError>

export class BatchExportService extends Context.Service<BatchExportService, {
  readonly create: (actor: Actor, organization: string, body: unknown) => Effect.Effect<BatchExport, PermissionDenied | NotFound | ValidationError>
  readonly list: (actor: Actor, organization: string, query: ListQuery) => Effect.Effect<Page<BatchExportView>, PermissionDenied | NotFound>
  /** One export of the organization; an unknown, deleted or foreign id is the 404 naming it, as pause answers. */
  readonly retrieve: (actor: Actor, organization: string, id: string) => Effect.Effect<BatchExportView, PermissionDenied | NotFound>
  /** Idempotent; the body is optional and its fields are ignored. */
  readonly pause: SwitchPaused
  /** Idempotent; `last_paused_at` keeps the time of the last pause. */
  readonly unpause: SwitchPaused
}>()("hedgerow/BatchExportService") {
  static readonly layerNoDeps = Layer.effect(
    BatchExportService,
    Effect.gen(function*() {
      const exports = yield* BatchExportRepository
      const access = yield* Access
      const projects = yield* ProjectRepository
      const transactions = yield* Transactions

      const create = Effect.fn("BatchExportService.create")(function*(actor: Actor, organization: string, body: unknown) {
        yield* requireSystem(actor)
        const { organization_id } = yield* access.organization(actor, organization, "batch_export:write")
        const input = yield* decodeCreate(body)
        const project = yield* projects.findById(input.project_id as ProjectId)
        if (Option.isNone(project) || project.value.organization_id !== organization_id) {
          return yield* ValidationError.field("project_id", "This project does not belong to the organization.", "does_not_exist")
        }
        return yield* exports.insert({
          organization_id,
          project_id: project.value.id,
          name: input.name,
          model: input.model ?? "events"
        })
      })

      /** The organization's export with this id, or the 404 naming the id as given (canonical when it is a uuid). */
      const find = (organization_id: OrganizationId, id: string) => {
        const uuid = canonicalUuid(id)
        if (uuid === undefined) return Effect.fail(exportNotFound(id))
        return exports.find(organization_id, uuid as BatchExportId).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(exportNotFound(uuid)), onSome: Effect.succeed }))
        )
      }

      const list = Effect.fn("BatchExportService.list")(function*(actor: Actor, organization: string, query: ListQuery) {
        const { organization_id } = yield* access.organization(actor, organization, "batch_export:read")
        const page = yield* exports.list(organization_id, pageRequest(query))
        return { ...page, results: page.results.map(toBatchExportView) }
      })

      const retrieve = Effect.fn("BatchExportService.retrieve")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* access.organization(actor, organization, "batch_export:read")
        return toBatchExportView(yield* find(organization_id, id))
      })

      const switchPaused = (paused: boolean): SwitchPaused =>
        Effect.fn(paused ? "BatchExportService.pause" : "BatchExportService.unpause")(function*(actor, organization, id, body) {
          const { organization_id } = yield* access.organization(actor, organization, "batch_export:write")
          const found = yield* find(organization_id, id)
          // Read only to refuse a malformed one, like any write body; what it says changes nothing.
          yield* body
          const switched = yield* transactions.run(exports.setPaused(organization_id, found.id, paused))
          if (!switched) return yield* exportNotFound(found.id)
        })

      return BatchExportService.of({ create, list, retrieve, pause: switchPaused(true), unpause: switchPaused(false) })
    })
  )
}
