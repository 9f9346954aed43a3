import { Argument, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details } from "../output.ts"

/** Flags live under a project; `@current` is the key holder's current one. */
export const projectFlag = Flag.String("project").pipe(
  Flag.withDescription(`Project id, or ${CURRENT} for the key holder's current project`),
  Flag.withDefault(CURRENT)
)

/** The flag an item command acts on, by id (keys are not unique over time: soft-deleted flags keep theirs). */
export const flagIdArgument = Argument.String("id").pipe(Argument.withDescription("Feature flag id"))

interface UserLike {
  readonly email?: string
}

/** What a person reads of a flag; `--json` prints all of it. */
export const flagSummary = (flag: {
  readonly created_by?: UserLike | null
  readonly last_modified_by?: UserLike | null
}) =>
  details(
    { ...flag, created_by: flag.created_by?.email ?? null, last_modified_by: flag.last_modified_by?.email ?? null },
    [
      "id", "key", "name", "active", "deleted", "status", "version", "is_simple_flag", "rollout_percentage", "filters",
      "tags", "usage_dashboard", "created_by", "created_at", "last_modified_by", "updated_at", "last_called_at"
    ]
  )

/** A flag as one row of the list table. */
export const flagRow = (flag: {
  readonly id: number
  readonly key: string
  readonly name: string
  readonly active: boolean
  readonly status: string
  readonly rollout_percentage: number | null
  readonly created_by: UserLike | null
}) => ({
  id: flag.id,
  key: flag.key,
  name: flag.name,
  active: flag.active,
  status: flag.status,
  rollout: flag.rollout_percentage,
  created_by: flag.created_by?.email ?? null
})
