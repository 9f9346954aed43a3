import { Domain, DomainCreate, DomainUpdate, PageEnvelopeOf } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

const DomainParams = { ...OrganizationParam, id: Schema.String }

/** `/api/organizations/{organization_id}/domains/`. */
export class DomainsGroup extends HttpApiGroup.make("domains")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/domains/", {
      params: OrganizationParam,
      query: ListQuery,
      success: PageEnvelopeOf(Domain),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The organization's domains, ordered by name (scope organization:read)"),
    HttpApiEndpoint.post("create", "/api/organizations/:organization_id/domains/", {
      params: OrganizationParam,
      payload: DomainCreate,
      success: Domain.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Add a domain, unique across all organizations; JIT provisioning and SSO enforcement wait for verification (administrator level, scope organization:write)"
    ),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/domains/:id/", {
      params: DomainParams,
      success: Domain,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A domain of the organization (scope organization:read)"),
    HttpApiEndpoint.patch("update", "/api/organizations/:organization_id/domains/:id/", {
      params: DomainParams,
      payload: DomainUpdate,
      success: Domain,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Change a domain's settings; the name itself cannot change (administrator level, scope organization:write)"
    ),
    HttpApiEndpoint.delete("destroy", "/api/organizations/:organization_id/domains/:id/", {
      params: DomainParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Remove a domain (administrator level, scope organization:write)"),
    HttpApiEndpoint.post("verify", "/api/organizations/:organization_id/domains/:id/verify/", {
      params: DomainParams,
      success: HttpApiSchema.Empty(200),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Look up the TXT record `_hedgerow-challenge.<domain>` (prefix configurable) for the verification challenge; read the outcome with GET. A JSON body is optional and its fields are ignored (administrator level, scope organization:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Domains" }))
{}
