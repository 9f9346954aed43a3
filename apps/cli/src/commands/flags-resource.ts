import { Argument } from "effect/cli"
import { details } from "../output.ts"
import { resource } from "../resource.ts"
import { inProject } from "../scope.ts"

interface UserLike {
  readonly email?: string
}

/** A project's feature flags, named by id: keys are not unique over time, soft-deleted flags keep theirs. */
export const flag = resource({
  noun: "flag",
  scope: inProject,
  id: Argument.String("id").pipe(Argument.withDescription("Feature flag id")),
  // What a person reads of a flag; `--json` prints all of it.
  show: (found: { readonly created_by?: UserLike | null; readonly last_modified_by?: UserLike | null }) =>
    details(
      { ...found, created_by: found.created_by?.email ?? null, last_modified_by: found.last_modified_by?.email ?? null },
      [
        "id", "key", "name", "active", "deleted", "status", "version", "is_simple_flag", "rollout_percentage", "filters",
        "tags", "usage_dashboard", "created_by", "created_at", "last_modified_by", "updated_at", "last_called_at"
      ]
    )
})
