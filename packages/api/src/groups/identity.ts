import { Me, PersonalApiKeyView } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/** Who is calling: the key's user and the key itself, which PostHog clients ask first. Any valid key may ask. */
export class IdentityGroup extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/api/users/@me/", { success: Me, error: ReadErrors }),
    HttpApiEndpoint.get("currentKey", "/api/personal_api_keys/@current/", { success: PersonalApiKeyView, error: ReadErrors })
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Identity" }))
{}
