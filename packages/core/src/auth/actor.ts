import type { MembershipLevel } from "../organizations/model.ts"
import type { PersonalApiKey } from "../personal-api-keys/model.ts"
import type { OrganizationId } from "../shared/ids.ts"
import type { User } from "../users/model.ts"

/** Who is calling: a user through one of their personal API keys. */
export interface UserActor {
  readonly _tag: "User"
  readonly user: User
  readonly key: PersonalApiKey
  /** The user's organizations and level in each, read with the key in one query. */
  readonly memberships: ReadonlyMap<OrganizationId, MembershipLevel>
}

/** The operator, in-process (CLI admin commands): every scope, every organization. */
export interface SystemActor {
  readonly _tag: "System"
}

export type Actor = UserActor | SystemActor

export const systemActor: SystemActor = { _tag: "System" }
