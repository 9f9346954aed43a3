import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit } from "../output.ts"
import { resource } from "../resource.ts"
import { inProject } from "../scope.ts"

interface RoleAccessLike {
  readonly id: number
  readonly added_at: string
  readonly feature_flag: { readonly id: number; readonly key: string }
  readonly role: { readonly id: string; readonly name: string; readonly feature_flags_access_level: number }
}

const row = (access: RoleAccessLike) => ({
  id: access.id,
  role: access.role.name,
  role_id: access.role.id,
  level: access.role.feature_flags_access_level,
  added_at: access.added_at
})

/** The roles granted a flag are commands on the flag, named here by `flag-id`. */
const flagAccess = resource({
  noun: "role access",
  scope: inProject,
  id: Argument.String("flag-id").pipe(Argument.withDescription("Feature flag id")),
  show: (access: RoleAccessLike) => details({ ...row(access), flag: `${access.feature_flag.id} (${access.feature_flag.key})` })
})

const list = flagAccess.listOf("list", {
  description: "Roles granted access to a flag",
  columns: ["id", "role", "role_id", "level", "added_at"],
  row,
  fetch: ({ client, at, id }, query) => client.flagRoleAccess.list({ params: { ...at, feature_flag_id: id }, query })
})

const add = flagAccess.onItem("add", {
  description: "Grant a role access to a flag: members of a can-only-view role may then edit it",
  input: { role: Flag.String("role").pipe(Flag.withDescription("Role id (uuid) of the flag's organization")) },
  run: ({ client, at, id, values, json }) =>
    client.flagRoleAccess.create({ params: { ...at, feature_flag_id: id }, payload: { role_id: values.role } }).pipe(
      Effect.flatMap(emit(json, flagAccess.show))
    )
})

const remove = flagAccess.onItem("remove", {
  description: "Take a role's access to a flag away",
  input: { entry: Argument.String("role-access-id").pipe(Argument.withDescription("The entry's id, as `role-access list` shows it")) },
  run: ({ client, at, id, values: { entry }, json }) =>
    client.flagRoleAccess.destroy({ params: { ...at, feature_flag_id: id, id: entry } }).pipe(
      // The API answers 204 with no body; the JSON says what was done so scripts still get an object.
      Effect.andThen(emit(json, () => `Removed role access ${entry} from flag ${id}.`)({ feature_flag_id: id, id: entry, removed: true }))
    )
})

export const roleAccess = Command.make("role-access").pipe(
  Command.withDescription("Per-role access to a flag (PostHog's legacy FeatureFlagRoleAccess)"),
  Command.withSubcommands([list, add, remove])
)
