import { Context, Data, Effect, Layer, Schema } from "effect"
import { Email, Text } from "../shared/fields.ts"
import { decodeInput } from "../shared/validation.ts"
import { systemActor } from "../auth/actor.ts"
import { makeFoundOrganization } from "../organizations/founding.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import { PersonalApiKeyService } from "../personal-api-keys/service.ts"
import { DEFAULT_PROJECT_NAME } from "../projects/model.ts"
import { type PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { OrganizationId, ProjectId, UserId, UserUuid } from "../shared/ids.ts"
import { Transactions } from "../shared/transactions.ts"
import { UserRepository } from "../users/repository.ts"
import { issueSignInLink } from "../sign-in-links/issue.ts"
import type { SignInLinkGrant } from "../sign-in-links/model.ts"
import { SignInLinkRepository } from "../sign-in-links/repository.ts"

const decodeOptions = decodeInput(Schema.Struct({
  email: Email,
  organization_name: Text({ max: 64 }),
  project_name: Text({ max: 200 })
}))

export class AlreadyBootstrapped extends Data.TaggedError("AlreadyBootstrapped")<{ readonly organizations: number }> {
  override get message() {
    return `This store is already bootstrapped (it holds ${this.organizations} organization(s)); ` +
      "use the other `hedgerow admin` commands to add organizations, users and keys."
  }
}

export interface BootstrapOptions {
  readonly email?: string | undefined
  readonly organizationName?: string | undefined
  readonly projectName?: string | undefined
  /** Also a one-time sign-in link for the owner, as `hedgerow serve` prints for its web console. */
  readonly signInLink?: boolean | undefined
}

export interface Bootstrapped {
  readonly organization_id: OrganizationId
  readonly project_id: ProjectId
  readonly user: { readonly id: UserId; readonly uuid: UserUuid; readonly email: string }
  readonly personal_api_key: string
  /** The owner's one-time sign-in link, when the options asked for one; its secret is shown only here. */
  readonly sign_in_link?: SignInLinkGrant
}

/**
 * First start: one organization, its owner, a project and an all-scopes key (and, when asked, the owner's
 * sign-in link), in one transaction.
 */
export class Bootstrap extends Context.Service<Bootstrap, {
  readonly run: (options: BootstrapOptions) => Effect.Effect<Bootstrapped, AlreadyBootstrapped | ValidationError | PermissionDenied>
  readonly isBootstrapped: Effect.Effect<boolean>
}>()("hedgerow/Bootstrap") {
  static readonly layerNoDeps = Layer.effect(
    Bootstrap,
    Effect.gen(function*() {
      const organizations = yield* OrganizationRepository
      const users = yield* UserRepository
      const foundOrganization = yield* makeFoundOrganization
      const keys = yield* PersonalApiKeyService
      const transactions = yield* Transactions
      const links = yield* SignInLinkRepository

      const run = (options: BootstrapOptions) =>
        transactions.run(Effect.gen(function*() {
          // Two servers starting at once on one empty database must not both bootstrap.
          yield* transactions.serialize("hedgerow:bootstrap")
          const input = yield* decodeOptions({
            email: options.email ?? "admin@hedgerow.local",
            organization_name: options.organizationName ?? "Hedgerow",
            project_name: options.projectName ?? DEFAULT_PROJECT_NAME
          })
          const existing = yield* organizations.count
          if (existing > 0) return yield* new AlreadyBootstrapped({ organizations: existing })
          const email = input.email
          const user = yield* users.insert({ email, first_name: "Admin", last_name: "", email_verified: true }).pipe(
            Effect.catchTag("EmailTaken", () =>
              Effect.fail(ValidationError.field("email", "A user with this email already exists.", "unique")))
          )
          const { organization, project } = yield* foundOrganization({
            name: input.organization_name,
            owner: user.id,
            projectName: input.project_name
          })
          const key = yield* keys.create(systemActor, { email, label: "bootstrap", scopes: ["*"] })
          const link = options.signInLink === true
            ? { sign_in_link: yield* issueSignInLink(user.id).pipe(Effect.provideService(SignInLinkRepository, links)) }
            : {}
          return {
            organization_id: organization.id,
            project_id: project.id,
            user: { id: user.id, uuid: user.uuid, email: user.email },
            personal_api_key: key.personal_api_key,
            ...link
          }
        }))

      return Bootstrap.of({ run, isBootstrapped: Effect.map(organizations.count, (n) => n > 0) })
    })
  )
}
