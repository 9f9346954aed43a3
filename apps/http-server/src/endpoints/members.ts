import { MemberService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const members = bindGroup("members", {
  list: ({ actor, params, query, url }) =>
    MemberService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  update: ({ actor, params, body }) => MemberService.use((s) => s.update(actor, params.organization_id, params.user__uuid, body)),
  destroy: ({ actor, params }) => MemberService.use((s) => s.remove(actor, params.organization_id, params.user__uuid))
})
