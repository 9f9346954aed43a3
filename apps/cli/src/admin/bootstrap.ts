import type { Bootstrapped } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { emit, jsonFlag } from "../output.ts"

const render = (done: Bootstrapped) =>
  [
    `Created organization ${done.organization_id}, project ${done.project_id} and owner ${done.user.email} (user ${done.user.id}).`,
    `Personal API key with scope * (shown only this once, keep it): ${done.personal_api_key}`
  ].join("\n")

export const bootstrap = Command.make(
  "bootstrap",
  {
    ...localFlags,
    email: Flag.String("email").pipe(Flag.withDescription("Owner's e-mail (default admin@hedgerow.local)"), Flag.optional),
    orgName: Flag.String("org-name").pipe(Flag.withDescription("Organization name (default Hedgerow)"), Flag.optional),
    projectName: Flag.String("project-name").pipe(Flag.withDescription("Project name (default Default project)"), Flag.optional),
    json: jsonFlag
  },
  ({ email, orgName, projectName, json, ...store }) =>
    inProcess(store, ({ Bootstrap }) =>
      Bootstrap.use((b) =>
        b.run({
          email: Option.getOrUndefined(email),
          organizationName: Option.getOrUndefined(orgName),
          projectName: Option.getOrUndefined(projectName)
        })
      )).pipe(Effect.flatMap(emit(json, render)))
).pipe(Command.withDescription("First setup of an empty store: an organization, its owner, a project and an all-scopes key"))
