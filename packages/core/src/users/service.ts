import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { type Actor, sessionOf, type UserActor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { LoginThrottle } from "../auth/throttle.ts"
import { requireWholeUser } from "../auth/whole-user.ts"
import { DomainRepository } from "../domains/repository.ts"
import { ssoEnforcementFor } from "../sso/domain-of-email.ts"
import { refusePasswordUnderSso } from "../sso/password-refusal.ts"
import type { SsoProvider } from "../sso/providers.ts"
import { parseSerial, type ProjectId } from "../shared/ids.ts"
import { byName } from "../organizations/model.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { toProjectSummary } from "../projects/views.ts"
import { type Body, type BodyError, bodyOf, decodeBody } from "../shared/body.ts"
import { PermissionDenied, ValidationError } from "../shared/errors.ts"
import { Email, isRecord, maxLength } from "../shared/fields.ts"
import { Transactions } from "../shared/transactions.ts"
import { loginTooOld, recentLoginRequired } from "../sessions/recent.ts"
import { SessionRepository } from "../sessions/repository.ts"
import { SignInLinkRepository } from "../sign-in-links/repository.ts"
import { TwoFactorRepository } from "../two-factor/repository.ts"
import { NewPassword, passwordHasher, PasswordHashing, passwordProblem, PasswordText } from "./password.ts"
import { requireSystem } from "../shared/system.ts"
import { decodeInput } from "../shared/validation.ts"
import { userByEmail } from "./by-email.ts"
import { type Me, toUserSummary, type User, UserCreate } from "./model.ts"
import { UserRepository } from "./repository.ts"

const decodeCreate = decodeInput(UserCreate)
const decodeSetPassword = decodeInput(Schema.Struct({ email: Email, password: NewPassword }))

/**
 * The fields of PostHog's user body this service writes: the password, with the current one. PostHog's
 * password column caps it at 128 characters; the length rule is checked after the current password, as
 * PostHog checks it.
 */
const decodeMeUpdate = decodeBody(Schema.Struct({
  current_password: Schema.optionalKey(PasswordText),
  password: Schema.optionalKey(PasswordText.check(maxLength(128)))
}))

/** The fields PostHog lets a user change from a log-in of any age. */
const TIME_INSENSITIVE_FIELDS: ReadonlySet<string> = new Set([
  "theme_mode", "set_current_organization", "set_current_team", "allow_sidebar_suggestions", "shortcut_position",
  "has_seen_product_intro_for", "events_column_config", "role_at_organization", "ui_configuration"
])

/** A user whose password the operator set, and the SSO provider their e-mail's domain enforces, if any. */
export type PasswordSet = User & { readonly sso_enforcement: SsoProvider | null }

export class UserService extends Context.Service<UserService, {
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<User, PermissionDenied | ValidationError>
  /** Any valid key may ask who it belongs to: it is the key holder's own data. */
  readonly me: (actor: UserActor) => Effect.Effect<Me>
  /**
   * The operator sets a user's password (`hedgerow admin users set-password`), ending all their sessions.
   * It is set even where the user's domain enforces SSO, so that an operator can prepare a way in for
   * when the identity provider fails; the answer names the enforced provider, under which log-in with the
   * password stays refused until the domain's enforcement is switched off.
   */
  readonly setPassword: (actor: Actor, body: unknown) => Effect.Effect<PasswordSet, PermissionDenied | ValidationError>
  /** `PATCH /api/users/@me/`: a new password (with the current one), which ends the user's other sessions. */
  readonly updateMe: (actor: UserActor, body: Body) => Effect.Effect<Me, PermissionDenied | ValidationError | BodyError>
}>()("hedgerow/UserService") {
  static readonly layerNoDeps = Layer.effect(
    UserService,
    Effect.gen(function*() {
      const users = yield* UserRepository
      const organizations = yield* OrganizationRepository
      const projects = yield* ProjectRepository
      const access = yield* Access
      const sessions = yield* SessionRepository
      const links = yield* SignInLinkRepository
      const twoFactor = yield* TwoFactorRepository
      const transactions = yield* Transactions
      const throttle = yield* LoginThrottle
      const domains = yield* DomainRepository
      const passwords = passwordHasher(yield* PasswordHashing)

      const create = Effect.fn("UserService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeCreate(body)
        return yield* users.insert({
          email: input.email,
          first_name: input.first_name ?? "",
          last_name: input.last_name ?? "",
          // The operator vouches for the address.
          email_verified: true
        }).pipe(
          Effect.catchTag("EmailTaken", () =>
            Effect.fail(new ValidationError({ code: "unique", detail: "A user with this email already exists.", attr: "email" })))
        )
      })

      const me = Effect.fn("UserService.me")(function*(actor: UserActor) {
        const { user } = actor
        const mine = yield* organizations.findManyById([...actor.memberships.keys()])
        const briefs = [...mine]
          .sort(byName)
          .map((o) => ({ id: o.id, name: o.name, slug: o.slug, membership_level: actor.memberships.get(o.id) ?? null }))
        const current = briefs.find((o) => o.id === user.current_organization_id) ?? briefs[0] ?? null
        const currentId = parseSerial(yield* access.currentProject(actor))
        const project = currentId === undefined
          ? Option.none()
          : (yield* projects.findById(currentId as ProjectId)).pipe(
            Option.filter((p) => actor.memberships.has(p.organization_id))
          )
        return {
          ...toUserSummary(user),
          is_2fa_enabled: Option.isSome(yield* twoFactor.device(user.id, false)),
          organization: current,
          organizations: briefs,
          team: Option.match(project, { onNone: () => null, onSome: toProjectSummary })
        }
      })

      const updateMe = Effect.fn("UserService.updateMe")(function*(actor: UserActor, body: Body) {
        yield* access.requireScope(actor, "user:write")
        const session = sessionOf(actor)
        const now = yield* Clock.currentTimeMillis
        // Read once: the rule below and the decoding both look at it.
        const given = yield* body
        if (session !== undefined && loginTooOld(session, now)) {
          // An old log-in may change only a few harmless fields, as in PostHog.
          const keys = isRecord(given) ? Object.keys(given) : []
          if (keys.length === 0 || keys.some((key) => !TIME_INSENSITIVE_FIELDS.has(key))) {
            return yield* recentLoginRequired()
          }
        }
        // A key narrower than its user may not give itself a way to log in as the whole user.
        if (isRecord(given) && "password" in given) yield* requireWholeUser(actor, "Setting a password")
        const input = yield* decodeMeUpdate(bodyOf(given))
        const { user } = actor
        if (input.password !== undefined) {
          yield* refusePasswordUnderSso(user.email, "change").pipe(Effect.provideService(DomainRepository, domains))
          const stored = yield* users.passwordHashOf(user.id)
          if (stored !== null) {
            if (input.current_password === undefined) {
              return yield* ValidationError.field("current_password", "This field is required when updating your password.", "required")
            }
            // Guesses at the current password count with failed log-ins for the same e-mail.
            yield* throttle.check(user.email)
            if (!(yield* passwords.verify(input.current_password, stored))) {
              yield* throttle.failed(user.email)
              return yield* ValidationError.field("current_password", "Your current password is incorrect.", "incorrect_password")
            }
          }
          // PostHog answers the password rules' messages under `password`, without their own codes.
          const problem = passwordProblem(input.password)
          if (problem !== undefined) return yield* ValidationError.field("password", problem, "invalid")
          const hash = yield* passwords.hash(input.password)
          yield* transactions.run(Effect.gen(function*() {
            yield* users.setPasswordHash(user.id, hash)
            // The caller's own session stays logged in, as in PostHog; the others end, and so does a sign-in link.
            yield* sessions.removeForUser(user.id, session?.session_id ?? null)
            yield* links.removeForUser(user.id)
          }))
        }
        return yield* me(actor)
      })

      const setPassword = Effect.fn("UserService.setPassword")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeSetPassword(body)
        const user = yield* userByEmail(input.email).pipe(Effect.provideService(UserRepository, users))
        const hash = yield* passwords.hash(input.password)
        yield* transactions.run(Effect.gen(function*() {
          yield* users.setPasswordHash(user.id, hash)
          yield* sessions.removeForUser(user.id, null)
          yield* links.removeForUser(user.id)
        }))
        const sso_enforcement = yield* ssoEnforcementFor(user.email).pipe(Effect.provideService(DomainRepository, domains))
        return { ...user, sso_enforcement }
      })

      return UserService.of({ create, me, updateMe, setPassword })
    })
  )
}
