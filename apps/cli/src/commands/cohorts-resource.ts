import type { BasicCohortView, CohortView } from "@hedgerow/core"
import { Argument } from "effect/cli"
import { details } from "../output.ts"
import { resource } from "../resource.ts"
import { inProject } from "../scope.ts"

/** A cohort as one row of the list table (a `basic` list's cohort has all it needs). */
export const cohortRow = (found: BasicCohortView) => ({
  id: found.id,
  name: found.name,
  type: found.is_static ? "static" : "dynamic",
  count: found.count,
  created_by: found.created_by?.email ?? null,
  created_at: found.created_at
})

/** A project's cohorts, named by id. */
export const cohort = resource({
  noun: "cohort",
  scope: inProject,
  id: Argument.String("id").pipe(Argument.withDescription("Cohort id")),
  // What a person reads of a cohort; `--json` prints all of it.
  show: (found: CohortView) =>
    details({ ...cohortRow(found), description: found.description, deleted: found.deleted, filters: found.filters }, [
      "id", "name", "description", "type", "count", "deleted", "filters", "created_by", "created_at"
    ])
})
