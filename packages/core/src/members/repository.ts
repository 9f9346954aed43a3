import { Context, type Effect, type Option } from "effect"
import type { Membership } from "./model.ts"
import type { MembershipLevel } from "../organizations/model.ts"
import type { OrganizationId, UserId } from "../shared/ids.ts"

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
}>()("hedgerow/MembershipRepository") {}
