import { randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Access } from "../auth/access.ts"
import { sessionOf, type SessionGrant, type UserActor } from "../auth/actor.ts"
import { Authentication } from "../auth/authenticate.ts"
import type { ActionSuccess } from "../feature-flags/model.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { PermissionDenied, ValidationError } from "../shared/errors.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { isSecureSite, SiteSettings } from "../shared/site.ts"
import { millisOf, timestampFromDate } from "../shared/time.ts"
import { Transactions } from "../shared/transactions.ts"
import { newSessionKey } from "../sessions/keys.ts"
import { type LoggedIn, openSession } from "../sessions/open.ts"
import { loginTooOld, recentLoginRequired } from "../sessions/recent.ts"
import { SessionRepository } from "../sessions/repository.ts"
import type { SessionRequest } from "../sessions/request.ts"
import { MailDelivery } from "../mail/delivery.ts"
import { type OutboxEntry, OutboxRepository } from "../mail/outbox.ts"
import type { UserId } from "../shared/ids.ts"
import type { User } from "../users/model.ts"
import { UserRepository } from "../users/repository.ts"
import { backupCodeHash, newBackupCodes } from "./backup-codes.ts"
import { type TwoFactorNotice, twoFactorEmail } from "./email.ts"
import { pendingLoginCleared, REMEMBER_DEVICE_SECONDS, rememberDeviceCookie } from "./cookies.ts"
import { type BackupCodes, TokenBody, TWO_FACTOR_WAIT_SECONDS, type TwoFactorSetup, type TwoFactorStatus } from "./model.ts"
import { TwoFactorRepository } from "./repository.ts"
import { verificationAllowed } from "./throttle.ts"
import { matchingStep, newTotpSecret, otpauthUri } from "./totp.ts"

const decodeToken = decodeBody(TokenBody)

/** The name authenticator apps list the account under. */
const ISSUER = "Hedgerow"

const success: ActionSuccess = { success: true }

/** PostHog's answers while a log-in waits for its code, and while setup waits for its first one. */
const loginExpired = () => ValidationError.field(null, "Login attempt has expired. Re-enter username/password.", "2fa_expired")
const tooManyAttempts = () => ValidationError.field(null, "Too many attempts.", "2fa_too_many_attempts")
const invalidCode = () => ValidationError.field(null, "Invalid authentication code", "2fa_invalid")
const setupExpired = () => ValidationError.field(null, "2FA setup session expired. Please start setup again.", "setup_expired")
const setupCodeInvalid = () => ValidationError.field(null, "Token is not valid", "token_invalid")
const notEnabled = () => ValidationError.field(null, "2FA must be enabled first", "2fa_not_enabled")

/**
 * How a user logs in is changed only from a log-in: a personal API key, made for scripts, can read
 * whether two-factor authentication is on but cannot turn it on, off, or make backup codes.
 */
const sessionRequired = () =>
  new PermissionDenied({ detail: "Two-factor authentication can only be managed from a logged-in session, not with a personal API key." })

export class TwoFactorService extends Context.Service<TwoFactorService, {
  /** `GET /api/users/@me/two_factor_start_setup/`: a new secret for this session's setup, for ten minutes. */
  readonly startSetup: (actor: UserActor) => Effect.Effect<typeof TwoFactorSetup.Type, PermissionDenied>
  /** `POST /api/users/@me/two_factor_validate/`: the app's first code turns two-factor authentication on. */
  readonly validate: (actor: UserActor, body: Body) => Effect.Effect<ActionSuccess, PermissionDenied | ValidationError | BodyError>
  /** `GET /api/users/@me/two_factor_status/`. */
  readonly status: (actor: UserActor) => Effect.Effect<TwoFactorStatus, PermissionDenied>
  /** `POST /api/users/@me/two_factor_backup_codes/`: new backup codes, replacing the old ones, shown once. */
  readonly backupCodes: (actor: UserActor) => Effect.Effect<typeof BackupCodes.Type, PermissionDenied | ValidationError>
  /** `POST /api/users/@me/two_factor_disable/`: removes the app, the backup codes and log-ins waiting for a code. */
  readonly disable: (actor: UserActor) => Effect.Effect<ActionSuccess, PermissionDenied>
  /** `POST /api/login/token/`: the code that finishes a password log-in, which then opens the session. */
  readonly completeLogin: (request: SessionRequest, body: Body) => Effect.Effect<LoggedIn, ValidationError | PermissionDenied | BodyError>
}>()("hedgerow/TwoFactorService") {
  static readonly layerNoDeps = Layer.effect(
    TwoFactorService,
    Effect.gen(function*() {
      const access = yield* Access
      const authentication = yield* Authentication
      const twoFactor = yield* TwoFactorRepository
      const transactions = yield* Transactions
      const site = yield* SiteSettings
      const outbox = yield* OutboxRepository
      const delivery = yield* MailDelivery
      const users = yield* UserRepository
      const sessions = yield* SessionRepository
      const context = yield* Effect.context<UserRepository | SessionRepository>()

      /** Inside the change's transaction: the notice to its user, recorded to be sent once the change commits. */
      const notify = (notice: TwoFactorNotice, user: User) =>
        outbox.insert({ ...twoFactorEmail(notice, user, site), kind: notice, related_id: String(user.id) })
      /** The same, for a user known by id (a log-in finishing with a backup code). */
      const notifyUser = (notice: TwoFactorNotice, id: UserId) =>
        Effect.flatMap(users.findById(id), (found) => Option.isSome(found) ? notify(notice, found.value) : Effect.succeed(undefined))
      const sent = (entries: ReadonlyArray<OutboxEntry | undefined>) =>
        delivery.dispatch(entries.filter((entry) => entry !== undefined))

      /** The caller's session, or the refusal of a key; with `recent`, a log-in at most two hours old, as PostHog asks of a user's writes. */
      const sessionCaller = (actor: UserActor, recent: boolean) =>
        Effect.gen(function*() {
          const session = sessionOf(actor)
          if (session === undefined) return yield* sessionRequired()
          if (recent && loginTooOld(session, yield* Clock.currentTimeMillis)) return yield* recentLoginRequired()
          return session
        })

      const startSetup = Effect.fn("TwoFactorService.startSetup")(function*(actor: UserActor) {
        yield* access.requireScope(actor, "user:read")
        const session: SessionGrant = yield* sessionCaller(actor, false)
        const secret = newTotpSecret()
        const now = yield* Clock.currentTimeMillis
        yield* transactions.run(Effect.gen(function*() {
          yield* twoFactor.removeExpired
          yield* twoFactor.putSetup(session.session_id, secret, timestampFromDate(new Date(now + TWO_FACTOR_WAIT_SECONDS * 1000)))
        }))
        return { success: true, secret, otpauth_uri: otpauthUri(secret, ISSUER, actor.user.email) }
      })

      const validate = Effect.fn("TwoFactorService.validate")(function*(actor: UserActor, body: Body) {
        yield* access.requireScope(actor, "user:write")
        const session = yield* sessionCaller(actor, true)
        const secret = yield* twoFactor.findSetup(session.session_id)
        if (Option.isNone(secret)) return yield* setupExpired()
        const { token } = yield* decodeToken(body)
        const step = matchingStep(secret.value, token, yield* Clock.currentTimeMillis, null)
        if (step === undefined) return yield* setupCodeInvalid()
        const notice = yield* transactions.run(Effect.gen(function*() {
          yield* twoFactor.enable(actor.user.id, secret.value, step)
          yield* twoFactor.removeSetup(session.session_id)
          // The code just taken is this session's second factor, as PostHog marks it at this step.
          yield* sessions.markTwoFactorVerified(session.session_id)
          return yield* notify("two_factor_enabled", actor.user)
        }))
        yield* sent([notice])
        return success
      })

      const status = Effect.fn("TwoFactorService.status")(function*(actor: UserActor) {
        yield* access.requireScope(actor, "user:read")
        const enabled = Option.isSome(yield* twoFactor.device(actor.user.id, false))
        return {
          is_enabled: enabled,
          backup_codes: [],
          backup_codes_remaining: enabled ? yield* twoFactor.backupCodesLeft(actor.user.id) : 0,
          method: enabled ? "TOTP" as const : null
        }
      })

      const backupCodes = Effect.fn("TwoFactorService.backupCodes")(function*(actor: UserActor) {
        yield* access.requireScope(actor, "user:write")
        yield* sessionCaller(actor, true)
        const codes = newBackupCodes()
        const made = yield* transactions.run(Effect.gen(function*() {
          if (Option.isNone(yield* twoFactor.device(actor.user.id, true))) return false
          yield* twoFactor.replaceBackupCodes(actor.user.id, codes.map(backupCodeHash))
          return true
        }))
        if (!made) return yield* notEnabled()
        return { backup_codes: codes }
      })

      const disable = Effect.fn("TwoFactorService.disable")(function*(actor: UserActor) {
        yield* access.requireScope(actor, "user:write")
        yield* sessionCaller(actor, true)
        const notice = yield* transactions.run(Effect.gen(function*() {
          // Turning off what is already off changes nothing, and tells no one.
          if (Option.isNone(yield* twoFactor.device(actor.user.id, true))) return undefined
          yield* twoFactor.disable(actor.user.id)
          yield* sessions.forgetTwoFactorVerified(actor.user.id)
          return yield* notify("two_factor_disabled", actor.user)
        }))
        yield* sent([notice])
        return success
      })

      const completeLogin = Effect.fn("TwoFactorService.completeLogin")(function*(request: SessionRequest, body: Body) {
        // A logged-in caller's write needs its CSRF token here too, as at the password's step.
        const current = yield* authentication.session(request)
        const key = request.twoFactorKey ?? ""
        const pending = key === "" ? Option.none() : yield* twoFactor.findPendingLogin(secureValueOf(key))
        const now = yield* Clock.currentTimeMillis
        if (Option.isNone(pending) || millisOf(pending.value.expires_at) <= now) return yield* loginExpired()
        const { id, user_id } = pending.value
        const { token } = yield* decodeToken(body)
        const remember = newSessionKey()
        const replacing = Option.getOrUndefined(Option.flatMapNullishOr(current, (actor) => sessionOf(actor)?.session_id))
        // One transaction, with the user's app locked: a failure is counted before any other server checks
        // a code for the same user, and a refusal still commits its count.
        const outcome = yield* transactions.run(Effect.gen(function*() {
          const device = yield* twoFactor.device(user_id, true)
          if (Option.isNone(device)) return "invalid" as const
          const { failure_count, failed_at, last_step, secret } = device.value
          if (!verificationAllowed(failure_count, failed_at === null ? null : millisOf(failed_at), now)) return "throttled" as const
          const step = matchingStep(secret, token, now, last_step)
          const backupCode = step === undefined && (yield* twoFactor.useBackupCode(user_id, backupCodeHash(token)))
          if (step === undefined && !backupCode) {
            yield* twoFactor.recordFailure(user_id, timestampFromDate(new Date(now)))
            return "invalid" as const
          }
          yield* twoFactor.recordSuccess(user_id, step ?? null)
          yield* twoFactor.removePendingLogin(id)
          // This browser is remembered: its next password log-ins ask for no code, as PostHog's do.
          yield* twoFactor.rememberDevice(user_id, secureValueOf(remember), timestampFromDate(new Date(now + REMEMBER_DEVICE_SECONDS * 1000)))
          const loggedIn = yield* openSession(user_id, replacing, true)
          return { loggedIn, notice: backupCode ? yield* notifyUser("two_factor_backup_code_used", user_id) : undefined }
        }).pipe(Effect.provideContext(context)))
        if (outcome === "throttled") return yield* tooManyAttempts()
        if (outcome === "invalid") return yield* invalidCode()
        yield* sent([outcome.notice])
        const secure = isSecureSite(site)
        return { cookies: [...outcome.loggedIn.cookies, pendingLoginCleared(secure), rememberDeviceCookie(randomUUID(), remember, secure)] }
      })

      return TwoFactorService.of({ startSetup, validate, status, backupCodes, disable, completeLogin })
    })
  )
}

