import { PageEnvelopeOf, Webhook, WebhookCreate, WebhookCreated, WebhookDelivery, WebhookUpdate } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery } from "./shared.ts"

const ProjectParam = { project_id: Schema.String }
const WebhookParams = { ...ProjectParam, id: Schema.String }

/**
 * `/api/projects/{project_id}/webhooks/`: signed notifications of the project's changes (Hedgerow's own;
 * PostHog has no such resource). Deliveries follow the Standard Webhooks specification.
 */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/:project_id/webhooks/", {
      params: ProjectParam,
      query: ListQuery,
      success: PageEnvelopeOf(Webhook),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The project's webhooks, oldest first; never their secrets (scope webhook:read)"),
    HttpApiEndpoint.post("create", "/api/projects/:project_id/webhooks/", {
      params: ProjectParam,
      payload: WebhookCreate,
      success: WebhookCreated.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Add a webhook: a receiver URL (http or https, on a public address unless the operator allows private ones), the events it wants (default every one, `*`) and optionally a `whsec_` secret; the answer shows the secret, which no later answer does (administrator level, scope webhook:write)"
    ),
    HttpApiEndpoint.get("retrieve", "/api/projects/:project_id/webhooks/:id/", {
      params: WebhookParams,
      success: Webhook,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A webhook of the project (scope webhook:read)"),
    HttpApiEndpoint.patch("update", "/api/projects/:project_id/webhooks/:id/", {
      params: WebhookParams,
      payload: WebhookUpdate,
      success: Webhook,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Change a webhook's URL, events, description or enabled switch, or replace its secret with one given (administrator level, scope webhook:write)"
    ),
    HttpApiEndpoint.delete("destroy", "/api/projects/:project_id/webhooks/:id/", {
      params: WebhookParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Remove a webhook with its deliveries; pending ones are not sent (administrator level, scope webhook:write)"),
    HttpApiEndpoint.get("deliveries", "/api/projects/:project_id/webhooks/:id/deliveries/", {
      params: WebhookParams,
      query: ListQuery,
      success: PageEnvelopeOf(WebhookDelivery),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The webhook's deliveries, newest first, each with its body and every attempt; at most 100 a page (scope webhook:read)"),
    HttpApiEndpoint.post("test", "/api/projects/:project_id/webhooks/:id/test/", {
      params: WebhookParams,
      success: WebhookDelivery.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Send a `webhook.test` delivery to the webhook, enabled or not; read its attempts from the deliveries. A JSON body is optional and ignored (administrator level, scope webhook:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Webhooks" }))
{}
