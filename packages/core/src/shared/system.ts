import { Effect } from "effect"
import type { Actor } from "../auth/actor.ts"
import { PermissionDenied } from "./errors.ts"

/** Operator-only operations (users, organizations, keys, roles have no API endpoints, D2). */
export const requireSystem = (actor: Actor) =>
  actor._tag === "System" ? Effect.void : Effect.fail(PermissionDenied.default())
