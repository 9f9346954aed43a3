import { Effect } from "effect"
import type { Actor } from "../auth/actor.ts"
import { PermissionDenied } from "./errors.ts"

/** Operator-only operations: users, organizations and roles have no API endpoints; `hedgerow admin` creates them (and keys for any user). */
export const requireSystem = (actor: Actor) =>
  actor._tag === "System" ? Effect.void : Effect.fail(PermissionDenied.default())
