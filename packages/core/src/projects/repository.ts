import { Context, type Effect, type Option } from "effect"
import type { Project, ProjectSettings } from "./model.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class ProjectRepository extends Context.Service<ProjectRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly name: string
    readonly api_token: string
    readonly settings: ProjectSettings
  }) => Effect.Effect<Project>
  readonly findById: (id: ProjectId) => Effect.Effect<Option.Option<Project>>
  /** Projects of these organizations (optionally only these ids), ordered by id. */
  readonly list: (
    filter: { readonly organizations: ReadonlyArray<OrganizationId>; readonly ids: ReadonlyArray<ProjectId> | null },
    page: PageRequest
  ) => Effect.Effect<Page<Project>>
}>()("hedgerow/ProjectRepository") {}
