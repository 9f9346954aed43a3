import { Context, type Effect, type Option } from "effect"
import type { NewProject, Project } from "./model.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class ProjectRepository extends Context.Service<ProjectRepository, {
  readonly insert: (input: NewProject) => Effect.Effect<Project>
  readonly findById: (id: ProjectId) => Effect.Effect<Option.Option<Project>>
  /** The project whose `api_token` this is (the public token SDKs send). */
  readonly findByToken: (token: string) => Effect.Effect<Option.Option<Project>>
  /** The project with the lowest id, the first one made; none in an empty store. */
  readonly first: Effect.Effect<Option.Option<Project>>
  /** Which of these projects still exist. */
  readonly existing: (ids: ReadonlyArray<ProjectId>) => Effect.Effect<ReadonlySet<ProjectId>>
  /** Projects of these organizations (optionally only these ids), ordered by id. */
  readonly list: (
    filter: { readonly organizations: ReadonlyArray<OrganizationId>; readonly ids: ReadonlyArray<ProjectId> | null },
    page: PageRequest
  ) => Effect.Effect<Page<Project>>
}>()("hedgerow/ProjectRepository") {}
