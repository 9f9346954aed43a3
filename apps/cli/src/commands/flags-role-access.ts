import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { remoteFlags, withApi } from "../remote.ts"
import { projectFlag } from "./flags-shared.ts"

const flagArgument = Argument.String("flag-id").pipe(Argument.withDescription("Feature flag id"))

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

const list = Command.make(
  "list",
  { ...remoteFlags, flag: flagArgument, project: projectFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "role", "role_id", "level", "added_at"],
        (query) => client.flagRoleAccess.list({ params: { project_id: options.project, feature_flag_id: options.flag }, query }),
        row
      ))
).pipe(Command.withDescription("Roles granted access to a flag"))

const add = Command.make(
  "add",
  {
    ...remoteFlags,
    flag: flagArgument,
    role: Flag.String("role").pipe(Flag.withDescription("Role id (uuid) of the flag's organization")),
    project: projectFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      client.flagRoleAccess.create({
        params: { project_id: options.project, feature_flag_id: options.flag },
        payload: { role_id: options.role }
      }).pipe(Effect.flatMap(emit(options.json, (access) =>
        details({ ...row(access), flag: `${access.feature_flag.id} (${access.feature_flag.key})` }))))
    )
).pipe(Command.withDescription("Grant a role access to a flag: members of a can-only-view role may then edit it"))

const remove = Command.make(
  "remove",
  {
    ...remoteFlags,
    flag: flagArgument,
    id: Argument.String("role-access-id").pipe(Argument.withDescription("The entry's id, as `role-access list` shows it")),
    project: projectFlag,
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      client.flagRoleAccess.destroy({ params: { project_id: options.project, feature_flag_id: options.flag, id: options.id } }).pipe(
        // 204 answers nothing; the JSON echoes what was done so scripts still get an object.
        Effect.andThen(options.json
          ? Console.log(JSON.stringify({ feature_flag_id: options.flag, id: options.id, removed: true }, null, 2))
          : Console.log(`Removed role access ${options.id} from flag ${options.flag}.`))
      ))
).pipe(Command.withDescription("Take a role's access to a flag away"))

export const roleAccess = Command.make("role-access").pipe(
  Command.withDescription("Per-role access to a flag (PostHog's legacy FeatureFlagRoleAccess)"),
  Command.withSubcommands([list, add, remove])
)
