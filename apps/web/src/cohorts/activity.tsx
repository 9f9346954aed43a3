import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { actorOf } from "../flags/activity-words.ts"
import { hrefOf } from "../router/routes.ts"
import { ACTIVITY_PAGE_SIZE, ActivityList } from "../ui/activity-list.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const PATH = "/api/projects/:project_id/cohorts/:id/activity/"

/** What happened, as the activity's name says it (PostHog's), in words. */
const ACTIVITY_WORDS: Readonly<Record<string, string>> = {
  created: "created the cohort",
  updated: "changed the cohort",
  deleted: "deleted the cohort",
  restored: "restored the cohort",
  persons_added_manually: "added persons",
  person_removed_manually: "removed a person"
}

/** The fields a change names, by the form's names for them. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  name: "Name",
  description: "Description",
  filters: "Who belongs",
  groups: "Who belongs (legacy groups)",
  deleted: "Deleted",
  is_static: "Type"
}

/** A value short enough to show in a sentence; a structure is said to have changed, not printed. */
const shortValue = (value: unknown): string | undefined =>
  typeof value === "string" ? (value === "" ? "empty" : `“${value}”`) : typeof value === "boolean" ? (value ? "yes" : "no") : typeof value === "number" ? String(value) : undefined

/** One entry: who did what and when, then each change it lists in words. */
const CohortEntry = ({ entry }: { readonly entry: Success<"GET", typeof PATH>["results"][number] }) => (
  <li>
    <p>
      <strong>{actorOf(entry)}</strong>{" "}
      {ACTIVITY_WORDS[entry.activity] ?? entry.activity} <When at={entry.created_at} />
    </p>
    {entry.detail.changes === null ? null : (
      <ul className="changes">
        {entry.detail.changes.filter((change) => change.field !== null).map((change, index) => {
          const field = FIELD_WORDS[change.field ?? ""] ?? change.field
          const before = shortValue(change.before)
          const after = shortValue(change.after)
          return (
            <li key={index}>
              {before !== undefined && after !== undefined ? `${field}: ${before} → ${after}` : `${field} changed`}
            </li>
          )
        })}
      </ul>
    )}
  </li>
)

/** The cohort's activity, newest first, a page at a time: who did what and when, each change in words. */
export const CohortActivity = ({ projectId, cohortId, pageNumber }: {
  readonly projectId: string
  readonly cohortId: string
  readonly pageNumber: number
}) => {
  const options = { params: { project_id: projectId, id: cohortId }, query: { limit: String(ACTIVITY_PAGE_SIZE), page: String(pageNumber) } }
  const activity = useApi(PATH, options)
  return (
    <section aria-labelledby="cohort-activity-title">
      <h2 id="cohort-activity-title">Activity</h2>
      <Resourceful resource={activity} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(page) =>
          page.total_count === 0
            ? <Empty title="Nothing has happened to this cohort yet." />
            : (
              <ActivityList
                entries={page.results}
                count={page.total_count}
                pageNumber={pageNumber}
                hrefFor={(number) => hrefOf({ page: "cohort", projectId, cohortId, tab: "activity", pageNumber: number })}
              >
                {(entry) => <CohortEntry entry={entry} />}
              </ActivityList>
            )}
      </Resourceful>
    </section>
  )
}
