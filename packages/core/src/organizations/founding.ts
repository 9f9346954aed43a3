import { Effect } from "effect"
import { MembershipRepository } from "../members/repository.ts"
import { DEFAULT_PROJECT_NAME, DEFAULT_SETTINGS } from "../projects/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import type { UserId } from "../shared/ids.ts"
import { newProjectToken } from "../shared/secrets.ts"
import { UserRepository } from "../users/repository.ts"
import { Level, slugify } from "./model.ts"
import { OrganizationRepository } from "./repository.ts"

export interface Founding {
  readonly name: string
  /** The user who founds it and becomes its owner; none for the operator. */
  readonly owner: UserId | null
  readonly projectName?: string | undefined
  /**
   * Whether the owner then works in it (their current organization and project for every session and
   * key); unless false, they do.
   */
  readonly becomesCurrent?: boolean | undefined
}

/**
 * Made once by a service: an organization founded as PostHog founds one, with its first project and, when
 * someone founds it, that user as its owner, who then works in it (unless told otherwise). Runs inside the
 * caller's transaction.
 */
export const makeFoundOrganization = Effect.gen(function*() {
  const organizations = yield* OrganizationRepository
  const projects = yield* ProjectRepository
  const memberships = yield* MembershipRepository
  const users = yield* UserRepository
  return (input: Founding) =>
    Effect.gen(function*() {
      const organization = yield* organizations.insert({ name: input.name, slug: slugify(input.name) })
      const project = yield* projects.insert({
        organization_id: organization.id,
        name: input.projectName ?? DEFAULT_PROJECT_NAME,
        api_token: newProjectToken(),
        settings: DEFAULT_SETTINGS
      })
      if (input.owner !== null) {
        // A brand-new organization has no members, so the founder cannot be one already.
        yield* memberships.insert({ organization_id: organization.id, user_id: input.owner, level: Level.owner }).pipe(Effect.orDie)
        if (input.becomesCurrent !== false) {
          yield* users.setCurrent(input.owner, { organization_id: organization.id, project_id: project.id })
        }
      }
      return { organization, project }
    })
})
