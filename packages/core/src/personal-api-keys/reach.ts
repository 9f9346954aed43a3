import { ValidationError } from "../shared/errors.ts"
import type { OrganizationId, ProjectId } from "../shared/ids.ts"
import { grants, type Scope } from "../shared/scope.ts"

/** What a key lets its holder do: its scopes and its restrictions (null or empty: none). */
export interface Reach {
  readonly scopes: ReadonlyArray<string>
  readonly scoped_teams: ReadonlyArray<ProjectId> | null
  readonly scoped_organizations: ReadonlyArray<OrganizationId> | null
}

/** The first scope of `wanted` that `held` does not grant: `*` only `*` grants, `X:read` also `X:write`. */
const scopeBeyond = (held: ReadonlyArray<string>, wanted: ReadonlyArray<string>): string | undefined =>
  wanted.find((scope) => (scope === "*" ? !held.includes("*") : !grants(held, scope as Scope)))

/** Whether a restriction list limits anything: null and empty lists reach everything. */
export const restricts = <A>(list: ReadonlyArray<A> | null): list is ReadonlyArray<A> => list !== null && list.length > 0

/** An unrestricted list reaches everything; a restricted one only what it names. */
const restrictionWithin = <A>(outer: ReadonlyArray<A> | null, inner: ReadonlyArray<A> | null): boolean =>
  !restricts(outer) || (restricts(inner) && inner.every((item) => outer.includes(item)))

/**
 * Why a key with `wanted`'s reach would reach further than `held` (the caller's own key), as the 400 on
 * the first field that does, in the body's field order; undefined when it reaches no further. Each list
 * is compared on its own: a key restricted to some projects may only make keys restricted to some of
 * them, even where an organization restriction would reach no further.
 */
export const beyondReach = (held: Reach, wanted: Reach): ValidationError | undefined => {
  const scope = scopeBeyond(held.scopes, wanted.scopes)
  if (scope !== undefined) {
    return ValidationError.field("scopes", `Your API key does not have scope '${scope}', so it cannot grant it.`)
  }
  if (!restrictionWithin(held.scoped_teams, wanted.scoped_teams)) {
    return ValidationError.field(
      "scoped_teams",
      "Your API key is restricted to some projects, so a key it creates or changes must be restricted to some of them."
    )
  }
  if (!restrictionWithin(held.scoped_organizations, wanted.scoped_organizations)) {
    return ValidationError.field(
      "scoped_organizations",
      "Your API key is restricted to some organizations, so a key it creates or changes must be restricted to some of them."
    )
  }
  return undefined
}
