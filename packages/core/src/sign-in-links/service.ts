import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { type Actor, sessionOf } from "../auth/actor.ts"
import { Authentication } from "../auth/authenticate.ts"
import { LoginThrottle } from "../auth/throttle.ts"
import { DomainRepository } from "../domains/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { Email } from "../shared/fields.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { requireSystem } from "../shared/system.ts"
import { millisOf } from "../shared/time.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { type LoggedIn, openSession } from "../sessions/open.ts"
import type { SessionRepository } from "../sessions/repository.ts"
import type { SessionRequest } from "../sessions/request.ts"
import { ssoEnforcementFor } from "../sso/domain-of-email.ts"
import { refusePasswordUnderSso } from "../sso/password-refusal.ts"
import { pendingLoginFor, type TwoFactorPending } from "../two-factor/pending-login.ts"
import type { TwoFactorRepository } from "../two-factor/repository.ts"
import { userByEmail } from "../users/by-email.ts"
import { UserRepository } from "../users/repository.ts"
import { issueSignInLink } from "./issue.ts"
import { SignInLinkBody, type SignInLinkIssued } from "./model.ts"
import { SignInLinkRepository } from "./repository.ts"
import { isSignInSecret } from "./secret.ts"

const decodeRedeem = decodeBody(SignInLinkBody)
const decodeIssue = decodeInput(Schema.Struct({ email: Email }))

/**
 * A link that cannot be used, whatever the reason (spent, expired, replaced by a newer one, its user
 * deactivated, or never made), in one answer, so that the answer tells a guesser nothing.
 */
export const invalidSignInLink = () =>
  ValidationError.field(null, "This sign-in link has been used, has expired or is not valid.", "sign_in_link_invalid")

/** What a link's first use came to, decided inside the transaction that spends it. */
type Spent =
  | { readonly _tag: "Refused"; readonly refusal: ValidationError }
  | { readonly _tag: "Done"; readonly outcome: LoggedIn | TwoFactorPending }

/**
 * One-time sign-in links: the way into the console for a user without a password (the first start's
 * owner) or who lost theirs, made by the operator. A link takes the password's place in a log-in and
 * nothing more: the session it opens is a password log-in's, a user with two-factor authentication still
 * gives a code, a deactivated user or one whose domain enforces single sign-on is refused, and failures
 * count toward the log-in lock-out of the client's address.
 */
export class SignInLinkService extends Context.Service<SignInLinkService, {
  /**
   * The operator's `hedgerow admin users sign-in-link`: a new link for the user with this e-mail, replacing
   * their earlier one. A deactivated user gets none.
   */
  readonly issue: (actor: Actor, body: unknown) => Effect.Effect<SignInLinkIssued, PermissionDenied | ValidationError>
  /**
   * `POST /api/login/link/`: spends the link (its first use, whatever comes of it) and opens the session a
   * password log-in would, or, for a user with two-factor authentication, the log-in waiting for its code.
   */
  readonly redeem: (
    request: SessionRequest,
    body: Body
  ) => Effect.Effect<LoggedIn | TwoFactorPending, ValidationError | PermissionDenied | BodyError>
}>()("hedgerow/SignInLinkService") {
  static readonly layerNoDeps = Layer.effect(
    SignInLinkService,
    Effect.gen(function*() {
      const authentication = yield* Authentication
      const throttle = yield* LoginThrottle
      const transactions = yield* Transactions
      const users = yield* UserRepository
      const links = yield* SignInLinkRepository
      const domains = yield* DomainRepository
      const context = yield* Effect.context<UserRepository | SessionRepository | TwoFactorRepository | SignInLinkRepository>()

      const issue = Effect.fn("SignInLinkService.issue")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const { email } = yield* decodeIssue(body)
        const user = yield* userByEmail(email).pipe(Effect.provideService(UserRepository, users))
        if (!user.is_active) {
          return yield* ValidationError.field("email", `${user.email} is deactivated: a sign-in link would not let them in.`, "inactive")
        }
        const grant = yield* transactions.run(issueSignInLink(user.id).pipe(Effect.provideService(SignInLinkRepository, links)))
        const sso_enforcement = yield* ssoEnforcementFor(user.email).pipe(Effect.provideService(DomainRepository, domains))
        return { ...grant, email: user.email, sso_enforcement } satisfies SignInLinkIssued
      })

      const redeem = Effect.fn("SignInLinkService.redeem")(function*(request: SessionRequest, body: Body) {
        // A logged-in caller's write needs its CSRF token here too, as at the password's log-in.
        const current = yield* authentication.session(request)
        const { token } = yield* decodeRedeem(body)
        yield* throttle.checkAddress(request.clientAddress)
        const refused = (refusal: ValidationError) => ({ _tag: "Refused", refusal }) satisfies Spent
        const replacing = Option.getOrUndefined(Option.flatMapNullishOr(current, (actor) => sessionOf(actor)?.session_id))
        const spent: Spent = !isSignInSecret(token) ? refused(invalidSignInLink()) : yield* transactions.run(Effect.gen(function*() {
          // Taken, so spent, in the transaction that opens the session: a second use, even at the same moment, finds nothing.
          const taken = yield* links.take(secureValueOf(token))
          const now = yield* Clock.currentTimeMillis
          if (Option.isNone(taken) || millisOf(taken.value.expires_at) <= now) return refused(invalidSignInLink())
          const user = yield* users.findById(taken.value.user_id)
          if (Option.isNone(user) || !user.value.is_active) return refused(invalidSignInLink())
          // The link stands for the password, so it is refused where a password is.
          const underSso = yield* refusePasswordUnderSso(user.value.email, "login").pipe(
            Effect.provideService(DomainRepository, domains),
            Effect.result
          )
          if (underSso._tag === "Failure") return refused(underSso.failure)
          const pending = yield* pendingLoginFor(user.value.id, request.rememberedDevices ?? [])
          const outcome = pending._tag === "TwoFactorPending" ? pending : yield* openSession(user.value.id, replacing, pending.twoFactorVerified)
          return { _tag: "Done", outcome } satisfies Spent
        }).pipe(Effect.provideContext(context)))
        if (spent._tag === "Done") return spent.outcome
        if (spent.refusal.code === "sign_in_link_invalid") yield* throttle.failedAddress(request.clientAddress)
        return yield* spent.refusal
      })

      return SignInLinkService.of({ issue, redeem })
    })
  )
}
