import { Context, type Effect } from "effect"
import type { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "../shared/ids.ts"
import type { KeyRestrictions } from "./removal.ts"

/**
 * What removing an organization touches beyond the rows that cascade with it: the restrictions of keys
 * that name it or its projects, which are lists of ids rather than references, and its pending e-mail.
 */
export class OrganizationRemovalRepository extends Context.Service<OrganizationRemovalRepository, {
  /**
   * Locks the organization's row until the transaction ends, so member changes and writes that reference
   * it wait for the removal; false when it is gone already.
   */
  readonly lock: (organization: OrganizationId) => Effect.Effect<boolean>
  readonly projectsOf: (organization: OrganizationId) => Effect.Effect<ReadonlyArray<ProjectId>>
  /** Keys whose organization restriction names it, or whose project restriction names one of `projects`. */
  readonly keysRestrictedTo: (
    organization: OrganizationId,
    projects: ReadonlyArray<ProjectId>
  ) => Effect.Effect<ReadonlyArray<KeyRestrictions>>
  readonly restrictKey: (key: KeyRestrictions) => Effect.Effect<void>
  readonly revokeKeys: (ids: ReadonlyArray<PersonalApiKeyId>) => Effect.Effect<void>
  /**
   * Deletes the organization and, with it, everything that belongs to it (members, projects and their
   * flags, roles, invites and their outbox messages, domains, batch exports, activity). Answers the users
   * whose current organization it was; their current organization and project are cleared.
   */
  readonly remove: (organization: OrganizationId) => Effect.Effect<ReadonlyArray<UserId>>
}>()("hedgerow/OrganizationRemovalRepository") {}
