import { Clock, Context, Effect, Layer, Option } from "effect"
import type { UserActor } from "../auth/actor.ts"
import { Authentication } from "../auth/authenticate.ts"
import { isExpired } from "../invites/views.ts"
import type { InviteRecord } from "../invites/model.ts"
import { InviteRepository } from "../invites/repository.ts"
import { DomainRepository } from "../domains/repository.ts"
import { refusePasswordUnderSso } from "../sso/password-refusal.ts"
import { MembershipRepository } from "../members/repository.ts"
import { membersTurn } from "../members/turn.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { orNotFound, type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, type InviteId } from "../shared/ids.ts"
import { Transactions } from "../shared/transactions.ts"
import type { SetCookie } from "../sessions/cookies.ts"
import { openSession } from "../sessions/open.ts"
import { SessionRepository } from "../sessions/repository.ts"
import type { SessionRequest } from "../sessions/request.ts"
import { toUserSummary, type User, type UserSummary } from "../users/model.ts"
import { passwordHasher, PasswordHashing } from "../users/password.ts"
import { UserRepository } from "../users/repository.ts"
import { InviteAccept, type InvitePrevalidation, maskEmail } from "./model.ts"

const decodeAccept = decodeBody(InviteAccept)

const refuse = (detail: string, code = "invalid_input") => Effect.fail(ValidationError.field(null, detail, code))
const notValid = () => refuse("The provided invite ID is not valid.")

/** What accepting answers: the user (as PostHog embeds one), and for a new user the cookies of their first session. */
export interface Accepted {
  readonly user: UserSummary
  readonly cookies: ReadonlyArray<SetCookie>
}

/**
 * Accepting an invite, as PostHog's sign-up does. `prevalidate` says whether the invite can be used (by
 * the logged-in user, if any). `accept` makes the invitee a member at the invite's level, creating their
 * user and logging them in unless they are logged in already, and removes the address's invites to the
 * organization, all in one transaction. Invites are found by id alone: the id is the secret the e-mail
 * carries. The errors are PostHog's 400s.
 */
export class SignupService extends Context.Service<SignupService, {
  readonly prevalidate: (request: SessionRequest, inviteId: string) => Effect.Effect<InvitePrevalidation, ValidationError | PermissionDenied>
  readonly accept: (
    request: SessionRequest,
    inviteId: string,
    body: Body
  ) => Effect.Effect<Accepted, ValidationError | PermissionDenied | BodyError>
}>()("hedgerow/SignupService") {
  static readonly layerNoDeps = Layer.effect(
    SignupService,
    Effect.gen(function*() {
      const authentication = yield* Authentication
      const invites = yield* InviteRepository
      const organizations = yield* OrganizationRepository
      const memberships = yield* MembershipRepository
      const users = yield* UserRepository
      const transactions = yield* Transactions
      const domains = yield* DomainRepository
      const passwords = passwordHasher(yield* PasswordHashing)
      const context = yield* Effect.context<UserRepository | SessionRepository>()

      const findInvite = (inviteId: string) => {
        const id = canonicalUuid(inviteId)
        return id === undefined
          ? notValid()
          : invites.findById(id as InviteId).pipe(Effect.flatMap(Option.match({ onNone: notValid, onSome: Effect.succeed })))
      }

      /** Whether the invite can be used by this user, checked in PostHog's order. */
      const validate = Effect.fnUntraced(function*(invite: InviteRecord, user: User | undefined) {
        if (user !== undefined && user.email.toLowerCase() !== invite.target_email.toLowerCase()) {
          return yield* refuse("This invite is intended for another email address.", "invalid_recipient")
        }
        if (isExpired(invite, yield* Clock.currentTimeMillis)) {
          return yield* refuse("This invite has expired. Please ask your admin for a new one.", "expired")
        }
        if (user !== undefined && Option.isSome(yield* memberships.find(invite.organization_id, user.id))) {
          return yield* refuse("You already are a member of this organization.", "user_already_member")
        }
        if ((yield* memberships.memberEmails(invite.organization_id, [invite.target_email])).size > 0) {
          return yield* refuse("Another user with this email address already belongs to this organization.", "existing_email_address")
        }
      })

      const loggedIn = (request: SessionRequest) => Effect.map(authentication.session(request), Option.getOrUndefined)

      const prevalidate = Effect.fn("SignupService.prevalidate")(function*(request: SessionRequest, inviteId: string) {
        const actor = yield* loggedIn(request)
        const invite = yield* findInvite(inviteId)
        yield* validate(invite, actor?.user)
        const organization = yield* organizations.findById(invite.organization_id).pipe(Effect.flatMap(orNotFound), Effect.orDie)
        return {
          id: invite.id,
          target_email: maskEmail(invite.target_email),
          first_name: invite.first_name,
          organization_name: organization.name
        }
      })

      const accept = Effect.fn("SignupService.accept")(function*(request: SessionRequest, inviteId: string, body: Body) {
        const actor: UserActor | undefined = yield* loggedIn(request)
        const input = yield* decodeAccept(body)
        if (actor === undefined) {
          // Required only of a new user; an empty value counts as none, as PostHog's truthiness test does.
          for (const field of ["first_name", "password"] as const) {
            if (!input[field]) return yield* ValidationError.field(field, "This field is required.", "required")
          }
        }
        const found = yield* findInvite(inviteId)
        // A new user of a domain that enforces SSO signs up through it, never with a password, as in PostHog.
        if (actor === undefined) {
          yield* refusePasswordUnderSso(found.target_email, "signup").pipe(Effect.provideService(DomainRepository, domains))
        }
        // Hashing takes a while, so it happens before the transaction, not inside it.
        const passwordHash = actor === undefined ? yield* passwords.hash(input.password!) : null
        return yield* transactions.run(Effect.gen(function*() {
          // One accept at a time per organization, after any invite or member change being written there.
          yield* transactions.serialize(membersTurn(found.organization_id))
          const invite = yield* invites.findById(found.id).pipe(
            Effect.flatMap(Option.match({
              onNone: () => refuse("This invite has already been used.", "expired"),
              onSome: Effect.succeed
            }))
          )
          const user = actor?.user ?? (yield* users.insert({
            email: invite.target_email,
            first_name: input.first_name!,
            last_name: "",
            password_hash: passwordHash
          }).pipe(Effect.catchTag("EmailTaken", () =>
            refuse(`There already exists an account with email address ${invite.target_email}. Please log in instead.`))))
          yield* validate(invite, user)
          yield* memberships.insert({ organization_id: invite.organization_id, user_id: user.id, level: invite.level }).pipe(
            Effect.catchTag("AlreadyMember", () => refuse("You already are a member of this organization.", "user_already_member"))
          )
          // Joining makes the organization the user's current one, as it does in PostHog.
          yield* users.setCurrent(user.id, { organization_id: invite.organization_id, project_id: null })
          // The used invite goes, and with it the address's other invites to the organization.
          yield* invites.removeForEmail(invite.organization_id, invite.target_email)
          const session = actor === undefined ? yield* openSession(user.id, undefined, false) : { cookies: [] }
          return { user: toUserSummary(user), cookies: session.cookies }
        }).pipe(Effect.provideContext(context)))
      })

      return SignupService.of({ prevalidate, accept })
    })
  )
}
