import { Schema } from "effect"
import type { SsoProvider } from "./providers.ts"
import { SSO_REFUSAL_WORDS, type SsoRefusalCode } from "./refusal-words.ts"

/**
 * Why an SSO log-in was turned away. `code` is the one a log-in page reads from `/login?error_code=`
 * (PostHog's codes, and its console's words as `detail`).
 */
export class SsoRefused extends Schema.TaggedError<SsoRefused>()("SsoRefused", {
  code: Schema.String,
  detail: Schema.String
}) {
  /** No account, and the e-mail's domain is not one whose people join by themselves. */
  static readonly noAccount = () => refused("no_new_organizations")
  /** No account, and the e-mail's verified domain does not let its people join by themselves. */
  static readonly jitNotEnabled = () => refused("jit_not_enabled")
  /** The account exists but has been deactivated. */
  static readonly inactive = () => refused("inactive")
  /** The identity provider vouched for no usable e-mail address. */
  static readonly noEmail = () => refused("no_email")
  /** The e-mail's domain requires another way of logging in. */
  static readonly enforced = (required: SsoProvider) => refused(ENFORCED[required])
}

const refused = (code: SsoRefusalCode) => new SsoRefused({ code, detail: SSO_REFUSAL_WORDS[code] })

/** The code that says which provider a domain requires. */
const ENFORCED: Record<SsoProvider, SsoRefusalCode> = {
  saml: "saml_sso_enforced",
  "google-oauth2": "google_sso_enforced",
  github: "github_sso_enforced",
  gitlab: "gitlab_sso_enforced"
}
