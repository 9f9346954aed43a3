import type { Invite } from "@hedgerow/core"
import { Argument, Flag } from "effect/cli"
import { details } from "../output.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

/** An organization's invites, through the API. */
export const invite = resource({
  noun: "invite",
  scope: inOrganization,
  id: Argument.String("id").pipe(Argument.withDescription("Invite id (uuid)")),
  show: (found: Invite) =>
    details(found, ["id", "target_email", "first_name", "level", "is_expired", "emailing_attempt_made", "private_project_access", "created_at"])
})

export const noEmailFlag = Flag.Boolean("no-email").pipe(
  Flag.withDescription("Record the invite without sending its e-mail (send_email false)"),
  Flag.withDefault(false)
)
