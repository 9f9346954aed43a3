import { Context, Effect, Layer } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access } from "../auth/access.ts"
import { type NotFound, orNotFound, type PermissionDenied, type ValidationError } from "../shared/errors.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { requireSystem } from "../shared/system.ts"
import { decodeInput } from "../shared/validation.ts"
import { byName, type Organization, OrganizationCreate, type OrganizationView, slugify } from "./model.ts"
import { OrganizationRepository } from "./repository.ts"

const decodeCreate = decodeInput(OrganizationCreate)

export class OrganizationService extends Context.Service<OrganizationService, {
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<Organization, PermissionDenied | ValidationError>
  /** `/api/organizations/`: the caller's organizations, ordered by name then id. */
  readonly listVisible: (actor: Actor, query: ListQuery) => Effect.Effect<Page<OrganizationView>, PermissionDenied>
  readonly retrieve: (actor: Actor, id: string) => Effect.Effect<OrganizationView, PermissionDenied | NotFound>
}>()("hedgerow/OrganizationService") {
  static readonly layerNoDeps = Layer.effect(
    OrganizationService,
    Effect.gen(function*() {
      const access = yield* Access
      const organizations = yield* OrganizationRepository

      const create = Effect.fn("OrganizationService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeCreate(body)
        return yield* organizations.insert({ name: input.name, slug: slugify(input.name) })
      })

      const listVisible = Effect.fn("OrganizationService.listVisible")(function*(actor: Actor, query: ListQuery) {
        yield* access.organizationEndpoint(actor)
        yield* access.requireScope(actor, "organization:read")
        const request = pageRequest(query)
        const ids = access.visibleOrganizations(actor)
        const found = yield* organizations.findManyById(ids)
        const sorted = [...found].sort(byName)
        const results = sorted.slice(request.offset, request.offset + request.limit).map((organization) => ({
          id: organization.id,
          name: organization.name,
          slug: organization.slug,
          created_at: organization.created_at,
          membership_level: actor._tag === "User" ? actor.memberships.get(organization.id) ?? null : null
        }))
        return { count: sorted.length, results, request }
      })

      const retrieve = Effect.fn("OrganizationService.retrieve")(function*(actor: Actor, id: string) {
        const { organization_id, level } = yield* access.organization(actor, id, "organization:read")
        const organization = yield* organizations.findById(organization_id).pipe(Effect.flatMap(orNotFound))
        return {
          id: organization.id,
          name: organization.name,
          slug: organization.slug,
          created_at: organization.created_at,
          membership_level: level
        }
      })

      return OrganizationService.of({ create, listVisible, retrieve })
    })
  )
}
