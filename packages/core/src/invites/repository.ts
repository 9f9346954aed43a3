import { Context, type Effect, type Option } from "effect"
import type { InviteRecord, InviteWithCreator, NewInvite } from "./model.ts"
import type { InviteId, OrganizationId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class InviteRepository extends Context.Service<InviteRepository, {
  readonly insert: (input: NewInvite) => Effect.Effect<InviteRecord>
  /** Newest first, expired invites included. */
  readonly list: (organization: OrganizationId, page: PageRequest) => Effect.Effect<Page<InviteWithCreator>>
  readonly findById: (id: InviteId) => Effect.Effect<Option.Option<InviteRecord>>
  readonly remove: (id: InviteId) => Effect.Effect<void>
  /** The organization's invites for an address (compared case-insensitively), newest first. */
  readonly forEmail: (organization: OrganizationId, email: string) => Effect.Effect<ReadonlyArray<InviteRecord>>
  readonly removeForEmail: (organization: OrganizationId, email: string) => Effect.Effect<void>
}>()("hedgerow/InviteRepository") {}
