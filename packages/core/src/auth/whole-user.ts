import { Effect } from "effect"
import { beyondReach, type Reach } from "../personal-api-keys/reach.ts"
import { PermissionDenied } from "../shared/errors.ts"
import type { Actor, UserActor } from "./actor.ts"

/** Everything the user may do: scope `*`, no project or organization restriction. */
const WHOLE_USER: Reach = { scopes: ["*"], scoped_teams: [], scoped_organizations: [] }

/** Whether the caller's credential is already everything its user is: a log-in session, or a key as above. */
const actsAsWholeUser = (actor: UserActor): boolean => beyondReach(actor.key, WHOLE_USER) === undefined

/**
 * For what opens a way to log in with all of a user's rights (setting a password; pointing a domain at an
 * identity provider, which can then log in any of the domain's people): only a caller that already has
 * all of its user's rights, or the operator, may do it; a narrower key is refused with 403.
 */
export const requireWholeUser = (actor: Actor, action: string): Effect.Effect<void, PermissionDenied> =>
  actor._tag === "System" || actsAsWholeUser(actor)
    ? Effect.void
    : Effect.fail(
      new PermissionDenied({
        detail: `${action} needs a log-in session or a personal API key with scope '*' and no project or organization restrictions.`
      })
    )
