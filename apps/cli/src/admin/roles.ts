import type { Role } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { given } from "../request-body.ts"

const create = Command.make(
  "create",
  {
    ...localFlags,
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    name: Flag.String("name").pipe(Flag.withDescription("Role name, unique in the organization")),
    featureFlagsAccessLevel: Flag.Int("feature-flags-access-level").pipe(
      Flag.withDescription("21 can only view, 37 can always edit (default)"),
      Flag.optional
    ),
    json: jsonFlag
  },
  ({ org, name, featureFlagsAccessLevel, json, ...store }) =>
    inProcess(store, ({ bodyOf, RoleService, systemActor }) =>
      RoleService.use((s) =>
        s.create(systemActor, org, bodyOf({ name, ...given({ feature_flags_access_level: featureFlagsAccessLevel }) }))
      )
    ).pipe(Effect.flatMap(emit(json, (role: Role) => details(role, ["id", "name", "feature_flags_access_level", "created_at"]))))
).pipe(Command.withDescription("Create a role in an organization"))

const addMember = Command.make(
  "add-member",
  {
    ...localFlags,
    role: Flag.String("role").pipe(Flag.withDescription("Role id")),
    email: Flag.String("email").pipe(Flag.withDescription("A member of the role's organization")),
    json: jsonFlag
  },
  ({ role, email, json, ...store }) =>
    inProcess(store, ({ RoleService, systemActor }) => RoleService.use((s) => s.addMember(systemActor, role, { email }))).pipe(
      // Core answers nothing on success; the JSON echoes what was done so scripts still get an object.
      Effect.andThen(json ? Console.log(JSON.stringify({ role_id: role, email }, null, 2)) : Console.log(`Added ${email} to role ${role}.`))
    )
).pipe(Command.withDescription("Add an organization member to a role"))

export const roles = Command.make("roles").pipe(
  Command.withDescription("Roles"),
  Command.withSubcommands([create, addMember])
)
