import { Context, type Effect, type Option } from "effect"
import type { InviteRecord, PrivateProjectAccess } from "./model.ts"
import type { MembershipLevel } from "../organizations/model.ts"
import type { InviteId, OrganizationId, UserId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"
import type { UserSummary } from "../users/model.ts"

/** An invite with its creator, read in one query. */
export interface InviteWithCreator {
  readonly invite: InviteRecord
  readonly created_by: UserSummary | null
}

export class InviteRepository extends Context.Service<InviteRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly target_email: string
    readonly first_name: string
    readonly level: MembershipLevel
    readonly message: string | null
    readonly private_project_access: ReadonlyArray<PrivateProjectAccess>
    readonly emailing_attempt_made: boolean
    readonly created_by_id: UserId | null
  }) => Effect.Effect<InviteRecord>
  /** Newest first, expired invites included. */
  readonly list: (organization: OrganizationId, page: PageRequest) => Effect.Effect<Page<InviteWithCreator>>
  readonly findById: (id: InviteId) => Effect.Effect<Option.Option<InviteRecord>>
  readonly remove: (id: InviteId) => Effect.Effect<void>
  /** The organization's invites for an address (compared case-insensitively), newest first. */
  readonly forEmail: (organization: OrganizationId, email: string) => Effect.Effect<ReadonlyArray<InviteRecord>>
  readonly removeForEmail: (organization: OrganizationId, email: string) => Effect.Effect<void>
}>()("hedgerow/InviteRepository") {}
