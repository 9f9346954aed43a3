import { InviteService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const invites = bindGroup("invites", {
  list: ({ actor, params, query, url }) =>
    InviteService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => InviteService.use((s) => s.create(actor, params.organization_id, body)),
  bulk: ({ actor, params, body }) => InviteService.use((s) => s.bulk(actor, params.organization_id, body)),
  destroy: ({ actor, params }) => InviteService.use((s) => s.destroy(actor, params.organization_id, params.id))
})
