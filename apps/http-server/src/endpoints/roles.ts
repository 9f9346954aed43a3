import { RoleService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const roles = bindGroup("roles", {
  list: ({ actor, params, query, url }) =>
    RoleService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => RoleService.use((s) => s.create(actor, params.organization_id, body)),
  retrieve: ({ actor, params }) => RoleService.use((s) => s.retrieve(actor, params.organization_id, params.id)),
  update: ({ actor, params, body }) => RoleService.use((s) => s.update(actor, params.organization_id, params.id, body)),
  destroy: ({ actor, params }) => RoleService.use((s) => s.destroy(actor, params.organization_id, params.id)),
  memberships: ({ actor, params, query, url }) =>
    RoleService.use((s) => s.memberships(actor, params.organization_id, params.role_id, query)).pipe(
      Effect.map((page) => toEnvelope(page, url))
    ),
  addMembership: ({ actor, params, body }) =>
    RoleService.use((s) => s.addMembership(actor, params.organization_id, params.role_id, body)),
  removeMembership: ({ actor, params }) =>
    RoleService.use((s) => s.removeMembership(actor, params.organization_id, params.role_id, params.id))
})
