import { LoginPrecheck, LoginPrecheckBody } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { WriteErrors } from "../errors.ts"

/**
 * What PostHog's log-in page asks before it shows the password field: whether the e-mail's verified
 * domain makes its people log in with SSO, and whether it has SAML set up. No Authorization; it speaks of
 * domains only, never of users.
 */
export class LoginPrecheckGroup extends HttpApiGroup.make("loginPrecheck")
  .add(
    HttpApiEndpoint.post("precheck", "/api/login/precheck/", {
      payload: LoginPrecheckBody,
      success: LoginPrecheck,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "For `email`: `sso_enforcement`, the provider its verified domain requires (`saml`, `google-oauth2`, `github`, `gitlab`; null when none, or when that provider is not set up), and `saml_available`, whether the domain has a SAML identity provider. The same answer whether or not anyone has an account with the e-mail"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Log-in precheck" }))
{}
