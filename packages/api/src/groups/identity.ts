import { Me, PersonalApiKeyView } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/** Who is calling: the key's user and the key itself, which PostHog clients ask first. Any valid key may ask. */
export class IdentityGroup extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/api/users/@me/", { success: Me, error: ReadErrors }),
    HttpApiEndpoint.patch("updateMe", "/api/users/@me/", {
      payload: Schema.Struct({ current_password: Schema.optionalKey(Schema.String), password: Schema.optionalKey(Schema.String) }),
      success: Me,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Change your password: `password`, with `current_password` once you have one; your other sessions end (scope user:write; a session over two hours old must log in again). Only a session or a key with scope `*` and no restriction may (403 otherwise); 30 wrong current passwords lock the e-mail out for 10 minutes, as log-in does; where your e-mail's verified domain enforces SSO it is refused (400 `sso_enforced`)"
    ),
    HttpApiEndpoint.get("currentKey", "/api/personal_api_keys/@current/", { success: PersonalApiKeyView, error: ReadErrors })
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Identity" }))
{}
