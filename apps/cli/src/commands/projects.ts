import type { ProjectView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { checkPayload, remoteFlags, withApi } from "../remote.ts"
import { dataFlag, extraData } from "../request-body.ts"


const orgFlag = Flag.String("org").pipe(Flag.withDescription(`Organization id, or ${CURRENT} for the key holder's current one`))

const summary = (project: ProjectView) =>
  details(project, ["id", "uuid", "name", "organization", "timezone", "is_demo", "api_token", "created_at"])

const list = Command.make(
  "list",
  { ...remoteFlags, org: Flag.optional(orgFlag), ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(options, ["id", "name", "timezone", "organization"], (query) =>
        Option.match(options.org, {
          // Without an organization, the discovery endpoint: every project the key may see.
          onNone: () => client.projects.list({ query }),
          onSome: (organization_id) => client.organizationProjects.list({ params: { organization_id }, query })
        })))
).pipe(Command.withDescription("List projects, of one organization or of all the key can see"))

const get = Command.make(
  "get",
  {
    ...remoteFlags,
    id: Argument.String("id").pipe(Argument.withDescription(`Project id, or ${CURRENT} (without --org)`)),
    org: Flag.optional(orgFlag),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Option.match(options.org, {
        onNone: () => client.projects.retrieve({ params: { project_id: options.id } }),
        onSome: (organization_id) => client.organizationProjects.retrieve({ params: { organization_id, id: options.id } })
      }).pipe(Effect.flatMap(emit(options.json, summary))))
).pipe(Command.withDescription("Show a project"))

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    name: Flag.String("name").pipe(Flag.withDescription("Project name")),
    org: orgFlag.pipe(Flag.withDefault(CURRENT)),
    timezone: Flag.String("timezone").pipe(Flag.withDescription("IANA name, e.g. Europe/Berlin (default UTC)"), Flag.optional),
    demo: Flag.Boolean("demo").pipe(Flag.withDescription("Mark the project as a demo project"), Flag.withDefault(false)),
    data: dataFlag(),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const extra = yield* extraData(options.data)
        const body = {
          ...extra,
          name: options.name,
          ...(Option.isSome(options.timezone) ? { timezone: options.timezone.value } : {}),
          ...(options.demo ? { is_demo: true } : {})
        }
        const payload = yield* checkPayload((core) => core.ProjectCreate, body)
        const project = yield* client.organizationProjects.create({ params: { organization_id: options.org }, payload })
        yield* emit(options.json, summary)(project)
      }))
).pipe(Command.withDescription("Create a project in an organization"))

export const projects = Command.make("projects").pipe(
  Command.withDescription("Projects, through the API (--url, --key)"),
  Command.withSubcommands([list, get, create])
)
