import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { Choice, SerialReference, Text } from "../shared/fields.ts"
import { NotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { ProjectId } from "../shared/ids.ts"
import { requireSystem } from "../shared/system.ts"
import { decodeInput } from "../shared/validation.ts"
import type { BatchExport } from "./model.ts"
import { BatchExportRepository } from "./repository.ts"

const decodeCreate = decodeInput(Schema.Struct({
  project_id: SerialReference,
  name: Text({ max: 255 }),
  model: Schema.optionalKey(Choice(["events", "persons"]))
}))

export class BatchExportService extends Context.Service<BatchExportService, {
  readonly create: (actor: Actor, organization: string, body: unknown) => Effect.Effect<BatchExport, PermissionDenied | NotFound | ValidationError>
}>()("hedgerow/BatchExportService") {
  static readonly layer = Layer.effect(
    BatchExportService,
    Effect.gen(function*() {
      const exports = yield* BatchExportRepository
      const access = yield* Access
      const projects = yield* ProjectRepository

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

      return BatchExportService.of({ create })
    })
  )
}
