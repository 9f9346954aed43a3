import { type Authentication, personalApiKeyOf, type UserActor } from "@hedgerow/core"
import type { HttpServerRequest } from "effect/http"
import { sessionRequestOf } from "../request/session.ts"
import type { ServerSettingsShape } from "../settings/server-settings.ts"
import { noteKey } from "./request-log.ts"

/** The caller of an authenticated endpoint: a bearer key, else the session cookie (see Authentication.caller). */
export const callerOf = (
  authentication: Authentication["Service"],
  credential: string,
  request: HttpServerRequest.HttpServerRequest,
  settings: ServerSettingsShape
) => authentication.caller(credential, () => sessionRequestOf(request, settings))

/** The request log names a key by its id, known here without a second lookup; a session is not named. */
export const noteCaller = (actor: UserActor) => {
  const key = personalApiKeyOf(actor)
  if (key !== undefined) noteKey(key.id)
}
