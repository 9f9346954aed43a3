import type { OrganizationId, PersonalApiKeyId, ProjectId } from "../shared/ids.ts"

/** A key's restrictions as stored: null or empty means unrestricted. */
export interface KeyRestrictions {
  readonly id: PersonalApiKeyId
  readonly scoped_organizations: ReadonlyArray<OrganizationId> | null
  readonly scoped_teams: ReadonlyArray<ProjectId> | null
}

/** What becomes of a key restricted to a removed organization (or to its projects). */
export type KeyAfterRemoval =
  | { readonly _tag: "Unchanged" }
  | { readonly _tag: "Narrowed"; readonly key: KeyRestrictions }
  | { readonly _tag: "Revoked" }

/**
 * The removed organization and its projects leave the key's restrictions. An empty list means
 * "unrestricted", so a key that could reach only what was removed is revoked instead: emptied, it would
 * reach everything its holder can.
 */
export const keyAfterRemoval = (
  key: KeyRestrictions,
  organization: OrganizationId,
  projects: ReadonlySet<ProjectId>
): KeyAfterRemoval => {
  const organizations = key.scoped_organizations?.filter((id) => id !== organization) ?? null
  const teams = key.scoped_teams?.filter((id) => !projects.has(id)) ?? null
  const emptied = (before: ReadonlyArray<unknown> | null, after: ReadonlyArray<unknown> | null) =>
    before !== null && before.length > 0 && after!.length === 0
  if (emptied(key.scoped_organizations, organizations) || emptied(key.scoped_teams, teams)) return { _tag: "Revoked" }
  if (organizations?.length === key.scoped_organizations?.length && teams?.length === key.scoped_teams?.length) {
    return { _tag: "Unchanged" }
  }
  return { _tag: "Narrowed", key: { id: key.id, scoped_organizations: organizations, scoped_teams: teams } }
}
