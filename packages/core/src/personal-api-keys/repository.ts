import { Context, type Effect, type Option } from "effect"
import type { PersonalApiKey } from "./model.ts"
import type { MembershipLevel } from "../organizations/model.ts"
import type { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { User } from "../users/model.ts"

/** A key with its owner and the owner's memberships: all that authentication needs, in one read. */
export interface KeyHolder {
  readonly key: PersonalApiKey
  readonly user: User
  readonly memberships: ReadonlyArray<{ readonly organization_id: OrganizationId; readonly level: MembershipLevel }>
}

export class PersonalApiKeyRepository extends Context.Service<PersonalApiKeyRepository, {
  readonly insert: (input: {
    readonly user_id: UserId
    readonly label: string
    readonly secure_value: string
    readonly mask_value: string
    readonly scopes: ReadonlyArray<string>
    readonly scoped_organizations: ReadonlyArray<OrganizationId> | null
    readonly scoped_teams: ReadonlyArray<ProjectId> | null
  }) => Effect.Effect<PersonalApiKey>
  readonly findHolder: (secureValue: string) => Effect.Effect<Option.Option<KeyHolder>>
  readonly countForUser: (user: UserId) => Effect.Effect<number>
  readonly touch: (id: PersonalApiKeyId, at: Timestamp) => Effect.Effect<void>
}>()("hedgerow/PersonalApiKeyRepository") {}
