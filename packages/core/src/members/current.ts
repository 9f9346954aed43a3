import { Effect, Option } from "effect"
import type { UserId } from "../shared/ids.ts"
import { UserRepository } from "../users/repository.ts"
import { MembershipRepository } from "./repository.ts"

/**
 * Made once by a service: moves a user whose current organization is no longer theirs to the first they
 * joined of those left (none when none is left), with no current project.
 */
export const makeMoveToFirstOrganization = Effect.gen(function*() {
  const memberships = yield* MembershipRepository
  const users = yield* UserRepository
  return (user: UserId) =>
    Effect.flatMap(memberships.firstOrganizationOf(user), (next) =>
      users.setCurrent(user, { organization_id: Option.getOrNull(next), project_id: null }))
})
