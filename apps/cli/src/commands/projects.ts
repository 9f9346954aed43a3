import type { ProjectView } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details } from "../output.ts"
import { dataFlag, extraData, given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inAnyOrganization, inOrganization } from "../scope.ts"

const description = {
  noun: "project",
  id: Argument.String("id").pipe(Argument.withDescription(`Project id, or ${CURRENT} (without --org)`)),
  show: (found: ProjectView) => details(found, ["id", "uuid", "name", "organization", "timezone", "is_demo", "api_token", "created_at"])
}

/** Projects are read through an organization when `--org` names one, else through the key's own list. */
const project = resource({ ...description, scope: inAnyOrganization })
/** They are made in an organization, by default the key holder's current one. */
const newProject = resource({ ...description, scope: inOrganization })

const list = project.list({
  description: "List projects, of one organization or of all the key can see",
  columns: ["id", "name", "timezone", "organization"],
  fetch: ({ client, at }, query) =>
    Option.match(at, {
      // Without an organization, the discovery endpoint: every project the key may see.
      onNone: () => client.projects.list({ query }),
      onSome: (organization_id) => client.organizationProjects.list({ params: { organization_id }, query })
    })
})

const get = project.get({
  description: "Show a project",
  fetch: ({ client, at, id }) =>
    Option.match(at, {
      onNone: () => client.projects.retrieve({ params: { project_id: id } }),
      onSome: (organization_id) => client.organizationProjects.retrieve({ params: { organization_id, id } })
    })
})

const create = newProject.create({
  description: "Create a project in an organization",
  input: { name: Flag.String("name").pipe(Flag.withDescription("Project name")) },
  flags: {
    timezone: Flag.String("timezone").pipe(Flag.withDescription("IANA name, e.g. Europe/Berlin (default UTC)"), Flag.optional),
    demo: Flag.Boolean("demo").pipe(Flag.withDescription("Mark the project as a demo project"), Flag.withDefault(false)),
    data: dataFlag()
  },
  body: (values) =>
    Effect.map(extraData(values.data), (extra) => ({
      ...extra,
      name: values.name,
      ...given({ timezone: values.timezone }),
      ...(values.demo ? { is_demo: true } : {})
    })),
  schema: (core) => core.ProjectCreate,
  send: ({ client, at }, payload) => client.organizationProjects.create({ params: at, payload })
})

export const projects = Command.make("projects").pipe(
  Command.withDescription("Projects, through the API (--url, --key)"),
  Command.withSubcommands([list, get, create])
)
