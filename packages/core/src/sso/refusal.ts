import { Schema } from "effect"
import type { SsoProvider } from "./providers.ts"

/**
 * Why an SSO log-in was turned away. `code` is the one a log-in page reads from `/login?error_code=`
 * (PostHog's codes, and its console's words as `detail`).
 */
export class SsoRefused extends Schema.TaggedError<SsoRefused>()("SsoRefused", {
  code: Schema.String,
  detail: Schema.String
}) {
  /** No account, and the e-mail's domain is not one whose people join by themselves. */
  static readonly noAccount = () =>
    new SsoRefused({
      code: "no_new_organizations",
      detail: "Your email address is not associated with an account. Please ask your administrator for an invite."
    })
  /** No account, and the e-mail's verified domain does not let its people join by themselves. */
  static readonly jitNotEnabled = () =>
    new SsoRefused({
      code: "jit_not_enabled",
      detail:
        "We could not find an account with your email address and your organization does not support automatic enrollment. Please contact your administrator for an invite."
    })
  /** The account exists but has been deactivated. */
  static readonly inactive = () => new SsoRefused({ code: "inactive", detail: "This account has been deactivated." })
  /** The identity provider vouched for no usable e-mail address. */
  static readonly noEmail = () =>
    new SsoRefused({ code: "no_email", detail: "Your identity provider did not give a valid email address." })
  /** The e-mail's domain requires another way of logging in. */
  static readonly enforced = (required: SsoProvider) => ENFORCED[required]()
}

const GENERIC = "Your organization does not allow this authentication method."

const ENFORCED: Record<SsoProvider, () => SsoRefused> = {
  saml: () =>
    new SsoRefused({
      code: "saml_sso_enforced",
      detail: "Your organization requires SAML SSO authentication. Please enter your email address to access your account."
    }),
  "google-oauth2": () => new SsoRefused({ code: "google_sso_enforced", detail: `${GENERIC} Please log in with Google.` }),
  github: () => new SsoRefused({ code: "github_sso_enforced", detail: `${GENERIC} Please log in with GitHub.` }),
  gitlab: () => new SsoRefused({ code: "gitlab_sso_enforced", detail: `${GENERIC} Please log in with GitLab.` })
}
