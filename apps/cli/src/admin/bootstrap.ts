import type { Bootstrapped } from "@hedgerow/core"
import * as Option from "effect/Option"
import { Flag } from "effect/cli"
import { adminCommand } from "./command.ts"

const render = (done: Bootstrapped) =>
  [
    `Created organization ${done.organization_id}, project ${done.project_id} and owner ${done.user.email} (user ${done.user.id}).`,
    `Personal API key with scope * (shown only this once, keep it): ${done.personal_api_key}`
  ].join("\n")

export const bootstrap = adminCommand("bootstrap", {
  description: "First setup of an empty store: an organization, its owner, a project and an all-scopes key",
  flags: {
    email: Flag.String("email").pipe(Flag.withDescription("Owner's e-mail (default admin@hedgerow.local)"), Flag.optional),
    orgName: Flag.String("org-name").pipe(Flag.withDescription("Organization name (default Hedgerow)"), Flag.optional),
    projectName: Flag.String("project-name").pipe(Flag.withDescription("Project name (default Default project)"), Flag.optional)
  },
  run: ({ Bootstrap }, { email, orgName, projectName }) =>
    Bootstrap.use((b) =>
      b.run({
        email: Option.getOrUndefined(email),
        organizationName: Option.getOrUndefined(orgName),
        projectName: Option.getOrUndefined(projectName)
      })
    ),
  show: render
})
