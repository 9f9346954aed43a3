import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { details } from "../output.ts"
import { given } from "../request-body.ts"
import { adminCommand } from "./command.ts"

const create = adminCommand("create", {
  description: "Create a role in an organization",
  flags: {
    org: Flag.String("org").pipe(Flag.withDescription("Organization id")),
    name: Flag.String("name").pipe(Flag.withDescription("Role name, unique in the organization")),
    featureFlagsAccessLevel: Flag.Int("feature-flags-access-level").pipe(
      Flag.withDescription("21 can only view, 37 can always edit (default)"),
      Flag.optional
    )
  },
  run: ({ bodyOf, RoleService, systemActor }, { org, name, featureFlagsAccessLevel }) =>
    RoleService.use((s) => s.create(systemActor, org, bodyOf({ name, ...given({ feature_flags_access_level: featureFlagsAccessLevel }) }))),
  show: (role) => details(role, ["id", "name", "feature_flags_access_level", "created_at"])
})

const addMember = adminCommand("add-member", {
  description: "Add an organization member to a role",
  flags: {
    role: Flag.String("role").pipe(Flag.withDescription("Role id")),
    email: Flag.String("email").pipe(Flag.withDescription("A member of the role's organization"))
  },
  // Core answers nothing on success; the JSON says what was done so scripts still get an object.
  run: ({ RoleService, systemActor }, { role, email }) =>
    RoleService.use((s) => s.addMember(systemActor, role, { email })).pipe(Effect.as({ role_id: role, email })),
  show: (done) => `Added ${done.email} to role ${done.role_id}.`
})

export const roles = Command.make("roles").pipe(
  Command.withDescription("Roles"),
  Command.withSubcommands([create, addMember])
)
