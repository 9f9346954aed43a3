import { Context, Effect, Layer, Option, Schema } from "effect"
import { sessionOf } from "../auth/actor.ts"
import { Authentication } from "../auth/authenticate.ts"
import { LoginThrottle } from "../auth/throttle.ts"
import { DomainRepository } from "../domains/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { type PermissionDenied, ValidationError } from "../shared/errors.ts"
import { Email, notBlank, Trimmed } from "../shared/fields.ts"
import { isSecureSite, SiteSettings } from "../shared/site.ts"
import { Transactions } from "../shared/transactions.ts"
import { refusePasswordUnderSso } from "../sso/password-refusal.ts"
import { passwordHasher, PasswordHashing, PasswordText } from "../users/password.ts"
import { UserRepository } from "../users/repository.ts"
import { pendingLoginFor, type TwoFactorPending } from "../two-factor/pending-login.ts"
import { logoutCookies, type SetCookie } from "./cookies.ts"
import { type LoggedIn, openSession } from "./open.ts"
import { SessionRepository } from "./repository.ts"
import type { SessionRequest } from "./request.ts"
import { TwoFactorRepository } from "../two-factor/repository.ts"

/** The e-mail is trimmed before it is checked; nothing left is blank, as PostHog's e-mail field says. */
export const TrimmedEmail = Trimmed.check(notBlank).pipe(Schema.decodeTo(Email))

/** The log-in body: an e-mail and a password. */
export const LoginBody = Schema.Struct({ email: TrimmedEmail, password: PasswordText })
const decodeLogin = decodeBody(LoginBody)

/** PostHog's answer to wrong credentials, whichever part was wrong. */
const invalidCredentials = () => ValidationError.field(null, "Invalid email or password.", "invalid_credentials")

export class SessionService extends Context.Service<SessionService, {
  /**
   * `POST /api/login/`: `{"success": true}` and the new session's cookies, or PostHog's refusal; for a
   * user with two-factor authentication, a log-in waiting for its code instead of a session.
   */
  readonly login: (
    request: SessionRequest,
    body: Body
  ) => Effect.Effect<LoggedIn | TwoFactorPending, ValidationError | PermissionDenied | BodyError>
  /** `POST /api/logout/`: ends the request's session, if it has one, and removes its cookie. */
  readonly logout: (request: SessionRequest) => Effect.Effect<{ readonly cookies: ReadonlyArray<SetCookie> }, PermissionDenied>
}>()("hedgerow/SessionService") {
  static readonly layerNoDeps = Layer.effect(
    SessionService,
    Effect.gen(function*() {
      const authentication = yield* Authentication
      const throttle = yield* LoginThrottle
      const users = yield* UserRepository
      const sessions = yield* SessionRepository
      const transactions = yield* Transactions
      const site = yield* SiteSettings
      const domains = yield* DomainRepository
      const passwords = passwordHasher(yield* PasswordHashing)
      const context = yield* Effect.context<UserRepository | SessionRepository | TwoFactorRepository>()

      const login = Effect.fn("SessionService.login")(function*(request: SessionRequest, body: Body) {
        // The caller is authenticated first: a logged-in caller's write needs its CSRF token here too.
        const current = yield* authentication.session(request)
        const { email, password } = yield* decodeLogin(body)
        // Before any password check, as PostHog: a domain that enforces SSO takes no password.
        yield* refusePasswordUnderSso(email, "login").pipe(Effect.provideService(DomainRepository, domains))
        yield* throttle.check(email, request.clientAddress)
        const found = yield* users.findCredentials(email)
        // The hash is checked whether or not the e-mail is known, so the answer takes as long either way.
        const matches = yield* passwords.verify(password, Option.match(found, { onNone: () => null, onSome: (f) => f.password_hash }))
        if (!matches || Option.isNone(found) || !found.value.user.is_active) {
          yield* throttle.failed(email, request.clientAddress)
          return yield* invalidCredentials()
        }

        const user = found.value.user.id
        const replacing = Option.getOrUndefined(Option.flatMapNullishOr(current, (actor) => sessionOf(actor)?.session_id))
        // A hash made with other parameters than this server's is made again from the password just
        // checked (before the transaction: hashing takes a while).
        const stored = found.value.password_hash!
        const rehashed = passwords.outdated(stored) ? yield* passwords.hash(password) : undefined
        return yield* transactions.run(Effect.gen(function*() {
          if (rehashed !== undefined) yield* users.replacePasswordHash(user, stored, rehashed)
          // Two-factor authentication: the password was right, and the code comes next, at `/api/login/token/`.
          const pending = yield* pendingLoginFor(user, request.rememberedDevices ?? [])
          if (pending._tag === "TwoFactorPending") return pending
          return yield* openSession(user, replacing, pending.twoFactorVerified)
        })).pipe(Effect.provideContext(context))
      })

      const logout = Effect.fn("SessionService.logout")(function*(request: SessionRequest) {
        const current = yield* authentication.session(request)
        const session = Option.flatMapNullishOr(current, (actor) => sessionOf(actor))
        if (Option.isSome(session)) yield* transactions.single(sessions.remove(session.value.session_id))
        return { cookies: logoutCookies(isSecureSite(site)) }
      })

      return SessionService.of({ login, logout })
    })
  )
}
