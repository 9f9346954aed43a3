import * as Effect from "effect/Effect"
import { CliOutput, Command } from "effect/cli"
import { admin } from "./commands/admin.ts"
import { batchExports } from "./commands/batch-exports.ts"
import { domains } from "./commands/domains.ts"
import { cohorts } from "./commands/cohorts.ts"
import { flags } from "./commands/flags.ts"
import { groupTypes } from "./commands/group-types.ts"
import { webhooks } from "./commands/webhooks.ts"
import { invites } from "./commands/invites.ts"
import { keys } from "./commands/keys.ts"
import { auth, login, logout } from "./commands/login.ts"
import { members } from "./commands/members.ts"
import { orgs } from "./commands/orgs.ts"
import { projects } from "./commands/projects.ts"
import { roles } from "./commands/roles.ts"
import { serve } from "./commands/serve.ts"
import { oneLinePresenter, reportFailures } from "./output.ts"
import { VERSION } from "./version.ts"

export { VERSION }

export const hedgerow = Command.make("hedgerow").pipe(
  Command.withDescription("Hedgerow: a self-hostable PostHog-compatible organization and feature-flag API"),
  Command.withSubcommands([serve, admin, orgs, projects, domains, batchExports, invites, members, roles, flags, cohorts, groupTypes, webhooks, keys, login, logout, auth])
)

/** The CLI on the process arguments, every failure already printed as one line. */
export const cli = Command.run(hedgerow, { version: VERSION }).pipe(
  Effect.provideService(CliOutput.Presenter, oneLinePresenter),
  reportFailures
)

/** The same on explicit arguments (no program name), for running commands in-process. */
export const runHedgerow = (args: ReadonlyArray<string>) =>
  Command.runWith(hedgerow, { version: VERSION })(args).pipe(
    Effect.provideService(CliOutput.Presenter, oneLinePresenter),
    reportFailures
  )
