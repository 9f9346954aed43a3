import { Context, Effect, Layer, Option, Schema } from "effect"
import { MembershipRepository } from "../members/repository.ts"
import { PersonalApiKeyRepository } from "../personal-api-keys/repository.ts"
import { TwoFactorRepository } from "../two-factor/repository.ts"
import { membersTurn } from "../members/turn.ts"
import { Level } from "../organizations/model.ts"
import type { DomainRepository } from "../domains/repository.ts"
import { type LoggedIn, openSession } from "../sessions/open.ts"
import { SessionRepository } from "../sessions/repository.ts"
import { SignInLinkRepository } from "../sign-in-links/repository.ts"
import { Email } from "../shared/fields.ts"
import type { SessionId } from "../shared/ids.ts"
import { holdsLoneSurrogate, holdsNul } from "../shared/text.ts"
import { Transactions } from "../shared/transactions.ts"
import { NAME_MAX_LENGTH } from "../users/model.ts"
import { UserRepository } from "../users/repository.ts"
import { enforcedProviderOf, verifiedDomainOf } from "./domain-of-email.ts"
import type { SsoProvider } from "./providers.ts"
import { SsoRefused } from "./refusal.ts"

/** Who an identity provider vouched for, after the provider's own checks passed. */
export interface SsoIdentity {
  readonly provider: SsoProvider
  readonly email: string
  readonly first_name: string
  readonly last_name: string
}

const isEmail = Schema.is(Email)

/** An address the store can hold and compare: well formed, with no NUL character or lone surrogate. */
const usableEmail = (email: string): boolean => isEmail(email) && !holdsNul(email) && !holdsLoneSurrogate(email)

/** A name as a provider gave it, made storable: no NUL character or lone surrogate, at most the longest a user's may be. */
const storableName = (name: string): string =>
  Array.from(name.replaceAll("\0", "").trim()).filter((c) => !holdsLoneSurrogate(c)).slice(0, NAME_MAX_LENGTH).join("")

/**
 * Where every single sign-on ends, whichever provider vouched. The e-mail's verified domain decides:
 * when it enforces a provider, only that one may log its people in; when it provisions just in time, a
 * person new to this deployment gets an account (with no password) and anyone not yet in the domain's
 * organization joins it as a member, which becomes their current organization. Anyone else must already
 * have an account: SSO never founds an organization. The log-in then opens a session as a password's does.
 */
export class SsoSignIn extends Context.Service<SsoSignIn, {
  readonly signIn: (identity: SsoIdentity, replacing: SessionId | undefined) => Effect.Effect<LoggedIn, SsoRefused>
}>()("hedgerow/SsoSignIn") {
  static readonly layerNoDeps = Layer.effect(
    SsoSignIn,
    Effect.gen(function*() {
      const users = yield* UserRepository
      const memberships = yield* MembershipRepository
      const sessions = yield* SessionRepository
      const keys = yield* PersonalApiKeyRepository
      const links = yield* SignInLinkRepository
      const twoFactor = yield* TwoFactorRepository
      const transactions = yield* Transactions
      const context = yield* Effect.context<UserRepository | SessionRepository | MembershipRepository | DomainRepository>()

      // The store folds case its own way (`İ` to `i`): an account is this identity's only when the two
      // addresses are one in JavaScript's folding too, so a look-alike address never reaches another's account.
      const accountOf = (email: string) =>
        Effect.map(users.findByEmail(email), Option.filter((user) => user.email.toLowerCase() === email.toLowerCase()))

      const signIn = Effect.fn("SsoSignIn.signIn")(function*(identity: SsoIdentity, replacing: SessionId | undefined) {
        const email = identity.email.trim()
        if (!usableEmail(email)) return yield* SsoRefused.noEmail()
        return yield* transactions.run(Effect.gen(function*() {
          const domain = yield* verifiedDomainOf(email)
          if (Option.isSome(domain)) {
            const required = yield* enforcedProviderOf(domain.value)
            if (required !== null && required !== identity.provider) return yield* SsoRefused.enforced(required)
          }
          const joins = Option.filter(domain, (d) => d.jit_provisioning_enabled)
          const found = yield* accountOf(email)
          if (Option.isNone(found) && Option.isNone(joins)) {
            return yield* (Option.isSome(domain) ? SsoRefused.jitNotEnabled() : SsoRefused.noAccount())
          }
          const person = Option.isSome(found) ? found.value : yield* users.insert({
            email,
            first_name: storableName(identity.first_name),
            last_name: storableName(identity.last_name),
            email_verified: true
          }).pipe(
            // Someone else's log-in made the account a moment ago: theirs is the one to use. An address the
            // store holds as the same but JavaScript does not is another person's: refused.
            Effect.catchTag("EmailTaken", () =>
              Effect.flatMap(accountOf(email), Option.match({ onNone: () => Effect.fail(SsoRefused.noEmail()), onSome: Effect.succeed })))
          )
          if (!person.is_active) return yield* SsoRefused.inactive()
          if (!person.is_email_verified) {
            // The account was made without proof that its maker holds the address (by accepting an invite,
            // which its inviter can do): the identity provider proves it now, and whatever the maker set up
            // (a password, a second factor, sessions, a sign-in link, keys) goes, so an account made ahead for someone
            // else's address gives its maker no way into the account its owner now uses.
            yield* users.proveEmail(person.id)
            yield* sessions.removeForUser(person.id, null)
            yield* links.removeForUser(person.id)
            yield* keys.deleteAllForUser(person.id)
            yield* twoFactor.disable(person.id)
          }
          if (Option.isSome(joins)) {
            const organization = joins.value.organization_id
            yield* transactions.serialize(membersTurn(organization))
            if (Option.isNone(yield* memberships.find(organization, person.id))) {
              yield* memberships.insert({ organization_id: organization, user_id: person.id, level: Level.member }).pipe(Effect.orDie)
              yield* users.setCurrent(person.id, { organization_id: organization, project_id: null })
            }
          }
          // The identity provider authenticated the person, second factor included when it asks one:
          // an organization enforcing two-factor authentication asks no code of this session.
          return yield* openSession(person.id, replacing, true)
        })).pipe(Effect.provideContext(context))
      })

      return SsoSignIn.of({ signIn })
    })
  )
}
