import { PersonalApiKeyCreate, PersonalApiKeyUpdate, PersonalApiKeyView } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/** A key of the caller's: its id, or `@current` for the calling key. */
const KeyParam = { id: Schema.String }

const WITHIN =
  "A key-authenticated caller may grant only scopes and restrictions within its own key's, and may act only on keys that grant no more than it does"

/** `/api/personal_api_keys/`: the caller's own keys. Another user's key id answers 404. */
export class PersonalApiKeysGroup extends HttpApiGroup.make("personalApiKeys")
  .add(
    HttpApiEndpoint.get("list", "/api/personal_api_keys/", {
      success: Schema.Array(PersonalApiKeyView),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The caller's keys, newest first, never their secrets; not paginated, as PostHog's (scope user:read)"),
    HttpApiEndpoint.post("create", "/api/personal_api_keys/", {
      payload: PersonalApiKeyCreate,
      success: PersonalApiKeyView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      `Make a key for the caller; its secret is \`value\`, shown this once. At most 10 keys per user. ${WITHIN} (scope user:write)`
    ),
    HttpApiEndpoint.get("retrieve", "/api/personal_api_keys/:id/", {
      params: KeyParam,
      success: PersonalApiKeyView,
      error: ReadErrors
    }).annotate(OpenApi.Description, "One of the caller's keys (the calling key itself needs no scope; another, user:read)"),
    HttpApiEndpoint.patch("update", "/api/personal_api_keys/:id/", {
      params: KeyParam,
      payload: PersonalApiKeyUpdate,
      success: PersonalApiKeyView,
      error: WriteErrors
    }).annotate(OpenApi.Description, `Change a key's label, scopes or restrictions. ${WITHIN} (scope user:write)`),
    HttpApiEndpoint.delete("destroy", "/api/personal_api_keys/:id/", {
      params: KeyParam,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, `Revoke a key: it is refused at once (scope user:write)`),
    HttpApiEndpoint.post("roll", "/api/personal_api_keys/:id/roll/", {
      params: KeyParam,
      success: PersonalApiKeyView,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Replace a key's secret: the old one is refused at once, the new one is `value`, shown this once. A JSON body is optional and its fields are ignored (scope user:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Personal API keys" }))
{}
