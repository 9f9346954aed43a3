import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import { details } from "../output.ts"
import { commaList, given, numberList } from "../request-body.ts"
import { adminCommand } from "./command.ts"

const create = adminCommand("create", {
  description: "Create a personal API key for a user",
  flags: {
    email: Flag.String("email").pipe(Flag.withDescription("The key holder's e-mail")),
    scopes: Flag.String("scopes").pipe(Flag.withDescription(`Comma-separated, e.g. "feature_flag:read,organization:write", or "*"`)),
    label: Flag.String("label").pipe(Flag.withDescription("A name to recognise the key by (at most 40 characters)"), Flag.optional),
    orgs: Flag.String("orgs").pipe(Flag.withDescription("Restrict to these organization ids (comma-separated)"), Flag.optional),
    projects: Flag.String("projects").pipe(Flag.withDescription("Restrict to these project ids (comma-separated)"), Flag.optional)
  },
  run: ({ PersonalApiKeyService, systemActor }, { email, scopes, label, orgs, projects }) =>
    PersonalApiKeyService.use((s) =>
      s.create(systemActor, {
        email,
        ...given({ label }),
        scopes: commaList(scopes),
        scoped_organizations: Option.match(orgs, { onNone: () => null, onSome: commaList }),
        scoped_teams: Option.match(projects, { onNone: () => null, onSome: numberList })
      })
    ),
  show: (key) =>
    [
      details(key, ["id", "label", "scopes", "scoped_organizations", "scoped_teams", "mask_value", "created_at"]),
      `Personal API key (shown only this once, keep it): ${key.personal_api_key}`
    ].join("\n")
})

export const keys = Command.make("keys").pipe(
  Command.withDescription("Personal API keys"),
  Command.withSubcommands([create])
)
