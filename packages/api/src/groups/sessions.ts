import { LoginBody, SignInLinkBody } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AuthenticationErrorResponse, WriteErrors } from "../errors.ts"

/**
 * Logging in and out with an e-mail and a password, as PostHog's console does: the answer sets the
 * `sessionid` cookie (HttpOnly, SameSite=Lax, Secure on an https site) and a new `posthog_csrftoken`
 * cookie, which a session-authenticated write must echo in `X-CSRFToken`. No Authorization.
 */
export class SessionsGroup extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.post("login", "/api/login/", {
      payload: LoginBody,
      success: Schema.Struct({ success: Schema.Boolean }),
      // 401 `2fa_required`: the user has two-factor authentication, and the code follows at `/api/login/token/`.
      error: [...WriteErrors, AuthenticationErrorResponse]
    }).annotate(
      OpenApi.Description,
      "Log in with `email` and `password`: a new session every time (the request's own, if any, ends), for two weeks. Wrong credentials answer 400 `Invalid email or password.`; 30 failures for one e-mail or from one address lock it out for 10 minutes (403 `too_many_failed_attempts`). For a user with two-factor authentication the answer is 401 `2fa_required` with no session, and `POST /api/login/token/` finishes the log-in"
    ),
    HttpApiEndpoint.post("loginLink", "/api/login/link/", {
      payload: SignInLinkBody,
      success: Schema.Struct({ success: Schema.Boolean }),
      // 401 `2fa_required`: the user has two-factor authentication, and the code follows at `/api/login/token/`.
      error: [...WriteErrors, AuthenticationErrorResponse]
    }).annotate(
      OpenApi.Description,
      "Log in with a one-time sign-in link's `token` (the part of the link after `#`, which an operator makes with `hedgerow admin users sign-in-link`): its first use spends it, and it works for 24 hours. The session is the one `/api/login/` opens, and a user with two-factor authentication is answered 401 `2fa_required` as there. A used, expired, replaced or unknown link answers 400 `sign_in_link_invalid`; failures count toward the log-in lock-out of the client's address (403 `too_many_failed_attempts`)"
    ),
    HttpApiEndpoint.post("logout", "/api/logout/", { success: HttpApiSchema.NoContent, error: WriteErrors }).annotate(
      OpenApi.Description,
      "End the request's session (it needs the CSRF token) and remove its cookie; without one, only the cookie is removed"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Sessions" }))
{}
