import { Effect } from "effect"
import { beyondReach, type Reach } from "../personal-api-keys/reach.ts"
import { PermissionDenied } from "../shared/errors.ts"
import type { UserActor } from "./actor.ts"

/** Everything the user may do: scope `*`, no project or organization restriction. */
const WHOLE_USER: Reach = { scopes: ["*"], scoped_teams: [], scoped_organizations: [] }

/** Whether the caller's credential is already everything its user is: a log-in session, or a key as above. */
const actsAsWholeUser = (actor: UserActor): boolean => beyondReach(actor.key, WHOLE_USER) === undefined

/**
 * A password is a way to log in with all of the user's rights, so only a caller that already has them may
 * set or change one; a narrower key is refused with 403.
 */
export const requireWholeUserForPassword = (actor: UserActor): Effect.Effect<void, PermissionDenied> =>
  actsAsWholeUser(actor)
    ? Effect.void
    : Effect.fail(
      new PermissionDenied({
        detail: "Setting a password needs a log-in session or a personal API key with scope '*' and no project or organization restrictions."
      })
    )
