import { Context, type Effect, type Option } from "effect"
import type { MemberOrder } from "./input.ts"
import type { MemberRecord, Membership } from "./model.ts"
import type { MembershipLevel } from "../organizations/model.ts"
import type { MembershipId, OrganizationId, UserId, UserUuid } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class AlreadyMember {
  readonly _tag = "AlreadyMember"
}

export class MembershipRepository extends Context.Service<MembershipRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly user_id: UserId
    readonly level: MembershipLevel
  }) => Effect.Effect<Membership, AlreadyMember>
  readonly find: (organization: OrganizationId, user: UserId) => Effect.Effect<Option.Option<Membership>>
  /** Members whose user is active; `email` matches one address, case-insensitively. */
  readonly list: (
    filter: { readonly organization_id: OrganizationId; readonly email: string | null },
    order: MemberOrder,
    page: PageRequest
  ) => Effect.Effect<Page<MemberRecord>>
  /** The membership of an active user, named by the user's uuid or id. */
  readonly findMember: (
    organization: OrganizationId,
    user: { readonly uuid: UserUuid } | { readonly id: UserId }
  ) => Effect.Effect<Option.Option<MemberRecord>>
  /**
   * Holds the organization's row until the transaction ends, so level changes and removals in one
   * organization are decided one at a time (two owners leaving at once cannot leave it ownerless).
   */
  readonly lockOrganization: (organization: OrganizationId) => Effect.Effect<void>
  readonly countOwners: (organization: OrganizationId) => Effect.Effect<number>
  readonly setLevel: (id: MembershipId, level: MembershipLevel) => Effect.Effect<Membership>
  /** Ends the membership and the user's memberships of that organization's roles, which mean nothing without it. */
  readonly remove: (membership: Membership) => Effect.Effect<void>
  /** The organization the user joined first, if any is left. */
  readonly firstOrganizationOf: (user: UserId) => Effect.Effect<Option.Option<OrganizationId>>
  /**
   * Which of these addresses, as given, belong to members of the organization (inactive users included),
   * compared case-insensitively by the store's own case mapping.
   */
  readonly memberEmails: (organization: OrganizationId, emails: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
}>()("hedgerow/MembershipRepository") {}
