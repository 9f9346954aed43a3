import { Context, type Effect, type Option } from "effect"
import type { Organization, OrganizationUpdate } from "./model.ts"
import type { OrganizationId } from "../shared/ids.ts"

export class OrganizationRepository extends Context.Service<OrganizationRepository, {
  /** Picks a free slug from `slug` (adding a suffix when taken). */
  readonly insert: (input: { readonly name: string; readonly slug: string }) => Effect.Effect<Organization>
  readonly findById: (id: OrganizationId) => Effect.Effect<Option.Option<Organization>>
  /** The given settings (and `updated_at`); the slug stays when the name changes, as PostHog keeps it. */
  readonly update: (id: OrganizationId, changes: OrganizationUpdate) => Effect.Effect<Option.Option<Organization>>
  readonly findManyById: (ids: ReadonlyArray<OrganizationId>) => Effect.Effect<ReadonlyArray<Organization>>
  readonly count: Effect.Effect<number>
}>()("hedgerow/OrganizationRepository") {}
