import { type Command, Flag } from "effect/cli"
import { CURRENT } from "./defaults.ts"

/**
 * Where a resource's items live in the API: the flags that name the place (an organization, a project,
 * or none for what belongs to the caller), and the path parameters they stand for.
 */
export interface Scope<F extends Command.Command.Config, At> {
  readonly flags: F
  readonly at: (values: Command.Command.Config.InferValue<F>) => At
}

const scope = <F extends Command.Command.Config, At>(
  flags: F,
  at: (values: Command.Command.Config.InferValue<F>) => At
): Scope<F, At> => ({ flags, at })

/** `--org`: an organization id, or the alias of the key holder's current one. */
const orgFlag = Flag.String("org").pipe(Flag.withDescription(`Organization id, or ${CURRENT} for the key holder's current one`))

/** `--project`: a project id, by default the key holder's current one. */
const projectFlag = Flag.String("project").pipe(
  Flag.withDescription(`Project id, or ${CURRENT} for the key holder's current project`),
  Flag.withDefault(CURRENT)
)

/** Items of one organization, under `/api/organizations/{organization_id}/`. */
export const inOrganization = scope({ org: orgFlag.pipe(Flag.withDefault(CURRENT)) }, ({ org }) => ({ organization_id: org }))

/** Items of the organization `--org` names, or without it of every organization the key reaches. */
export const inAnyOrganization = scope({ org: Flag.optional(orgFlag) }, ({ org }) => org)

/** Items of one project, under `/api/projects/{project_id}/`. */
export const inProject = scope({ project: projectFlag }, ({ project }) => ({ project_id: project }))

/** Items the API lists for the caller without naming a place: their organizations, their keys. */
export const topLevel = scope({}, () => ({}))
