import { Data, Effect, Option, Schema } from "effect"
import type { OAuthProvider } from "../providers.ts"
import type { SsoIdentity } from "../sign-in.ts"
import type { ProviderAnswer } from "./client.ts"

/** The provider's answer names no one this deployment may log in; `reason` says why, for the log. */
export class OAuthIdentityRefused extends Data.TaggedError("OAuthIdentityRefused")<{ readonly reason: string }> {}

/** `Ada Lovelace` → Ada, Lovelace: the first word is the first name, the rest the last. */
const splitName = (full: string | undefined): readonly [string, string] => {
  const trimmed = (full ?? "").trim()
  const space = trimmed.search(/\s/)
  return space === -1 ? [trimmed, ""] : [trimmed.slice(0, space), trimmed.slice(space + 1)]
}

const OptionalText = Schema.optional(Schema.NullOr(Schema.String))

/** An ID token's claims as far as a log-in reads them. */
const IdTokenClaims = Schema.Struct({
  email: Schema.optional(Schema.String),
  email_verified: Schema.optional(Schema.Unknown),
  nonce: Schema.optional(Schema.String),
  given_name: OptionalText,
  family_name: OptionalText,
  name: OptionalText
})
const decodeClaims = Schema.decodeUnknownOption(IdTokenClaims)

const refuse = (reason: string) => Effect.fail(new OAuthIdentityRefused({ reason }))

/** The address and names as the provider gave them: SsoSignIn judges the address and makes the names storable. */
const identityOf = (provider: OAuthProvider, email: string | undefined, first: string, last: string): SsoIdentity =>
  ({ provider, email: email ?? "", first_name: first, last_name: last })

/**
 * An OpenID provider's identity: the token must carry the nonce this log-in sent (so a token issued for
 * another log-in cannot be replayed into this one) and an address the provider says it verified
 * (`email_verified` exactly true), since the address is what finds or makes the user.
 */
const fromIdToken = (provider: OAuthProvider, claims: unknown, nonce: string) =>
  Effect.gen(function*() {
    const decoded = decodeClaims(claims)
    if (Option.isNone(decoded)) return yield* refuse("the ID token's claims are malformed")
    const token = decoded.value
    if (token.nonce !== nonce) return yield* refuse("the ID token's nonce is not this log-in's")
    if (token.email_verified !== true) return yield* refuse("the provider has not verified the e-mail address")
    const [first, last] = token.given_name != null || token.family_name != null
      ? [token.given_name ?? "", token.family_name ?? ""] as const
      : splitName(token.name ?? undefined)
    return identityOf(provider, token.email, first, last)
  })

const GitHubUser = Schema.Struct({ name: OptionalText, login: OptionalText })
const GitHubEmails = Schema.Array(Schema.Struct({ email: Schema.String, primary: Schema.Boolean, verified: Schema.Boolean }))
const decodeGitHubUser = Schema.decodeUnknownOption(GitHubUser)
const decodeGitHubEmails = Schema.decodeUnknownOption(GitHubEmails)

/** GitHub's identity: the account's primary address, and only when GitHub has verified it. */
const fromGitHub = (user: unknown, emails: unknown) =>
  Effect.gen(function*() {
    const list = decodeGitHubEmails(emails)
    if (Option.isNone(list)) return yield* refuse("GitHub's e-mail list is malformed")
    const primary = list.value.find((entry) => entry.primary && entry.verified)
    if (primary === undefined) return yield* refuse("the GitHub account has no verified primary e-mail address")
    const profile = Option.getOrUndefined(decodeGitHubUser(user))
    const [first, last] = splitName(profile?.name ?? profile?.login ?? undefined)
    return identityOf("github", primary.email, first, last)
  })

/** The identity a provider's answer vouches for, or why it vouches for none. */
export const identityFromAnswer = (provider: OAuthProvider, answer: ProviderAnswer, nonce: string) =>
  answer.kind === "id_token" ? fromIdToken(provider, answer.claims, nonce) : fromGitHub(answer.user, answer.emails)
