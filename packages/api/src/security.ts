import type { UserActor } from "@hedgerow/core"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { AuthenticationErrorResponse, ThrottledResponse } from "./errors.ts"

/** The authenticated caller, provided to every handler by the middleware below. */
export class CurrentActor extends Context.Service<CurrentActor, UserActor>()("hedgerow/api/CurrentActor") {}

/** `Authorization: Bearer <personal API key>`; clients must supply their key (one client per key). */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentActor }>()(
  "hedgerow/api/Authorization",
  {
    security: { personalApiKey: HttpApiSecurity.bearer },
    error: [AuthenticationErrorResponse, ThrottledResponse],
    requiredForClient: true
  }
) {}
