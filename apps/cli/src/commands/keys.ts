import type { PersonalApiKeyView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag, table } from "../output.ts"
import { checkPayload, remoteFlags, withApi } from "../remote.ts"
import { commaList, numberList } from "../request-body.ts"

const COLUMNS = ["id", "label", "mask_value", "scopes", "scoped_organizations", "scoped_teams", "created_at", "last_used_at"]

const idArgument = Argument.String("id").pipe(Argument.withDescription("Key id (uuid), or @current for the key in use"))

/** The key's fields, then its secret on a line of its own: the only time it is shown. */
const withSecret = (key: PersonalApiKeyView) =>
  [details(key, [...COLUMNS, "last_rolled_at"]), `Personal API key (shown only this once, keep it): ${key.value}`].join("\n")

const list = Command.make("list", { ...remoteFlags, json: jsonFlag }, (options) =>
  withApi(options, (client) =>
    client.personalApiKeys.list().pipe(
      Effect.flatMap(emit(options.json, (keys) => table(keys, COLUMNS)))
    ))).pipe(Command.withDescription("List your personal API keys, newest first (never their secrets)"))

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    label: Flag.String("label").pipe(Flag.withDescription("A name to recognise the key by (at most 40 characters)")),
    scopes: Flag.String("scopes").pipe(
      Flag.withDescription(`Comma-separated, e.g. "feature_flag:read,organization:write", or "*"; no wider than the key in use`)
    ),
    orgs: Flag.String("orgs").pipe(Flag.withDescription("Restrict to these organization ids (comma-separated)"), Flag.optional),
    projects: Flag.String("projects").pipe(Flag.withDescription("Restrict to these project ids (comma-separated)"), Flag.optional),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const payload = yield* checkPayload((core) => core.PersonalApiKeyCreate, {
          label: options.label,
          scopes: commaList(options.scopes),
          ...Option.match(options.orgs, { onNone: () => ({}), onSome: (orgs) => ({ scoped_organizations: commaList(orgs) }) }),
          ...Option.match(options.projects, { onNone: () => ({}), onSome: (ids) => ({ scoped_teams: numberList(ids) }) })
        })
        yield* emit(options.json, withSecret)(yield* client.personalApiKeys.create({ payload }))
      }))
).pipe(Command.withDescription("Make a personal API key for yourself; its secret is printed this once"))

const roll = Command.make("roll", { ...remoteFlags, id: idArgument, json: jsonFlag }, (options) =>
  withApi(options, (client) =>
    client.personalApiKeys.roll({ params: { id: options.id } }).pipe(Effect.flatMap(emit(options.json, withSecret))))).pipe(
    Command.withDescription("Give a key a new secret, printed this once; the old secret stops working at once")
  )

const remove = Command.make("delete", { ...remoteFlags, id: idArgument, json: jsonFlag }, (options) =>
  withApi(options, (client) =>
    client.personalApiKeys.destroy({ params: { id: options.id } }).pipe(
      Effect.andThen(emit(options.json, () => `Deleted key ${options.id}.`)({ id: options.id, deleted: true }))
    ))).pipe(Command.withDescription("Revoke a key: it stops working at once"))

export const keys = Command.make("keys").pipe(
  Command.withDescription("Your personal API keys, through the API (--url, --key, or hedgerow login)"),
  Command.withSubcommands([list, create, roll, remove])
)
