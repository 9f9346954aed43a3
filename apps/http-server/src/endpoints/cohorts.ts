import { CohortService, toEnvelope, toNumberedEnvelope, toPersonsEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const cohorts = bindGroup("cohorts", {
  list: ({ actor, params, query, url }) =>
    CohortService.use((s) => s.list(actor, params.project_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => CohortService.use((s) => s.create(actor, params.project_id, body)),
  projectActivity: ({ actor, params, query, url }) =>
    CohortService.use((s) => s.projectActivity(actor, params.project_id, query)).pipe(Effect.map((page) => toNumberedEnvelope(page, url))),
  retrieve: ({ actor, params }) => CohortService.use((s) => s.retrieve(actor, params.project_id, params.id)),
  update: ({ actor, params, body }) => CohortService.use((s) => s.update(actor, params.project_id, params.id, body)),
  replace: ({ actor, params, body }) => CohortService.use((s) => s.update(actor, params.project_id, params.id, body)),
  destroy: ({ actor, params }) => CohortService.use((s) => s.destroy(actor, params.project_id, params.id)),
  persons: ({ actor, params, query, url }) =>
    CohortService.use((s) => s.persons(actor, params.project_id, params.id, query)).pipe(Effect.map((page) => toPersonsEnvelope(page, url))),
  addPersons: ({ actor, params, body }) => CohortService.use((s) => s.addPersons(actor, params.project_id, params.id, body)),
  removePerson: ({ actor, params, body }) => CohortService.use((s) => s.removePerson(actor, params.project_id, params.id, body)),
  activity: ({ actor, params, query, url }) =>
    CohortService.use((s) => s.activity(actor, params.project_id, params.id, query)).pipe(Effect.map((page) => toNumberedEnvelope(page, url)))
})
