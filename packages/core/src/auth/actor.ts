import type { MembershipLevel } from "../organizations/model.ts"
import type { PersonalApiKey } from "../personal-api-keys/model.ts"
import type { OrganizationId, ProjectId, SessionId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { User } from "../users/model.ts"

/**
 * What a log-in session grants: everything its user may do, as PostHog gives a logged-in user, so it
 * reads as a key with scope `*` and no restriction wherever access is decided.
 */
export interface SessionGrant {
  readonly _tag: "Session"
  readonly session_id: SessionId
  /** When the log-in happened, for the actions PostHog allows only on a recent one. */
  readonly created_at: Timestamp
  readonly scopes: ReadonlyArray<"*">
  /** Always empty: no restriction. */
  readonly scoped_organizations: ReadonlyArray<OrganizationId>
  readonly scoped_teams: ReadonlyArray<ProjectId>
}

/** Who is calling: a user through one of their personal API keys, or through a log-in session. */
export interface UserActor {
  readonly _tag: "User"
  readonly user: User
  /** The credential's grant: the personal API key (its scopes and restrictions), or the session's. */
  readonly key: PersonalApiKey | SessionGrant
  /** The user's organizations and level in each, read with the credential in one query. */
  readonly memberships: ReadonlyMap<OrganizationId, MembershipLevel>
}

/** The personal API key the caller used, or undefined for a session. */
export const personalApiKeyOf = (actor: UserActor): PersonalApiKey | undefined =>
  "_tag" in actor.key ? undefined : actor.key

/** The session the caller is logged in with, or undefined for a personal API key. */
export const sessionOf = (actor: UserActor): SessionGrant | undefined => ("_tag" in actor.key ? actor.key : undefined)

/** The operator, in-process (CLI admin commands): every scope, every organization. */
export interface SystemActor {
  readonly _tag: "System"
}

export type Actor = UserActor | SystemActor

export const systemActor: SystemActor = { _tag: "System" }
