import type { UserActor } from "@hedgerow/core"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { AuthenticationErrorResponse, PermissionDeniedResponse, ThrottledResponse } from "./errors.ts"

/** The authenticated caller, provided to every handler by the middleware below. */
export class CurrentActor extends Context.Service<CurrentActor, UserActor>()("hedgerow/api/CurrentActor") {}

/**
 * `Authorization: Bearer <personal API key>`, or without one the `sessionid` cookie of a log-in (whose
 * writes need the CSRF token, else 403); clients must supply their key (one client per key).
 */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentActor }>()(
  "hedgerow/api/Authorization",
  {
    security: { personalApiKey: HttpApiSecurity.bearer },
    error: [AuthenticationErrorResponse, PermissionDeniedResponse, ThrottledResponse],
    requiredForClient: true
  }
) {}

/** The session cookie as the OpenAPI document names it, beside the bearer key. */
const SESSION_SCHEME = "session"

/**
 * The OpenAPI document with the session cookie as a second way into every endpoint that takes a
 * personal API key. The middleware above reads the cookie when no key is sent (see the server's
 * Authorization), so the scheme is declared here rather than as a second security of the middleware,
 * which would try each in turn and lose a bad key's 401 to the cookie's.
 */
export const withSessionSecurity = (spec: Record<string, any>): Record<string, any> => {
  const operations = Object.values<Record<string, any>>(spec["paths"] ?? {}).flatMap((path) => Object.values<any>(path))
  for (const operation of operations) {
    const security: Array<Record<string, unknown>> | undefined = operation?.security
    if (security?.some((entry) => "personalApiKey" in entry)) security.push({ [SESSION_SCHEME]: [] })
  }
  spec["components"] = {
    ...spec["components"],
    securitySchemes: {
      ...spec["components"]?.securitySchemes,
      [SESSION_SCHEME]: {
        type: "apiKey",
        in: "cookie",
        name: "sessionid",
        description: "The cookie `POST /api/login/` sets; writes also need the `posthog_csrftoken` cookie's value in `X-CSRFToken`"
      }
    }
  }
  return spec
}
