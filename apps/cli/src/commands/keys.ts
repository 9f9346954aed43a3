import type { PersonalApiKeyView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, table } from "../output.ts"
import { commaList, numberList } from "../request-body.ts"
import { resource } from "../resource.ts"
import { topLevel } from "../scope.ts"

const COLUMNS = ["id", "label", "mask_value", "scopes", "scoped_organizations", "scoped_teams", "created_at", "last_used_at"]

/** The caller's personal API keys; a key is shown whole only when it gets a secret, and then with it. */
const key = resource({
  noun: "key",
  scope: topLevel,
  id: Argument.String("id").pipe(Argument.withDescription("Key id (uuid), or @current for the key in use")),
  // The key's fields, then its secret on a line of its own: the only time it is shown.
  show: (found: PersonalApiKeyView) =>
    [details(found, [...COLUMNS, "last_rolled_at"]), `Personal API key (shown only this once, keep it): ${found.value}`].join("\n")
})

// The API answers every key at once, without pages.
const list = key.onAll("list", {
  description: "List your personal API keys, newest first (never their secrets)",
  run: ({ client, json }) => client.personalApiKeys.list().pipe(Effect.flatMap(emit(json, (keys) => table(keys, COLUMNS))))
})

const create = key.create({
  description: "Make a personal API key for yourself; its secret is printed this once",
  input: {
    label: Flag.String("label").pipe(Flag.withDescription("A name to recognise the key by (at most 40 characters)")),
    scopes: Flag.String("scopes").pipe(
      Flag.withDescription(`Comma-separated, e.g. "feature_flag:read,organization:write", or "*"; no wider than the key in use`)
    ),
    orgs: Flag.String("orgs").pipe(Flag.withDescription("Restrict to these organization ids (comma-separated)"), Flag.optional),
    projects: Flag.String("projects").pipe(Flag.withDescription("Restrict to these project ids (comma-separated)"), Flag.optional)
  },
  body: (values) =>
    Effect.succeed({
      label: values.label,
      scopes: commaList(values.scopes),
      ...Option.match(values.orgs, { onNone: () => ({}), onSome: (orgs) => ({ scoped_organizations: commaList(orgs) }) }),
      ...Option.match(values.projects, { onNone: () => ({}), onSome: (ids) => ({ scoped_teams: numberList(ids) }) })
    }),
  schema: (core) => core.PersonalApiKeyCreate,
  send: ({ client }, payload) => client.personalApiKeys.create({ payload })
})

const roll = key.onItem("roll", {
  description: "Give a key a new secret, printed this once; the old secret stops working at once",
  run: ({ client, id, json }) => client.personalApiKeys.roll({ params: { id } }).pipe(Effect.flatMap(emit(json, key.show)))
})

const remove = key.delete({
  description: "Revoke a key: it stops working at once",
  send: ({ client, id }) => client.personalApiKeys.destroy({ params: { id } })
})

export const keys = Command.make("keys").pipe(
  Command.withDescription("Your personal API keys, through the API (--url, --key, or hedgerow login)"),
  Command.withSubcommands([list, create, roll, remove])
)
