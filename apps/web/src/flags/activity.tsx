import type { ReactNode } from "react"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { Pagination } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { EntryStory } from "./activity-entry.tsx"
import type { ActivityEntry } from "./activity-words.ts"
import type { Flag } from "./flag.tsx"
import { RestoreVersion, type RestoredValues } from "./restore-version.tsx"

const PATH = "/api/projects/:project_id/feature_flags/:id/activity/"
export const ACTIVITY_PAGE_SIZE = 10

/** A page of activity entries told in words, and the links to the other pages. */
export const ActivityPage = ({ entries, count, pageNumber, hrefFor, about, actions }: {
  readonly entries: ReadonlyArray<ActivityEntry>
  readonly count: number
  readonly pageNumber: number
  readonly hrefFor: (pageNumber: number) => string
  /** What stands first in an entry (which flag, in the project's feed). */
  readonly about?: (entry: ActivityEntry) => ReactNode
  /** What stands last in an entry (Restore this version). */
  readonly actions?: (entry: ActivityEntry) => ReactNode
}) => (
  <>
    <ol className="activity">
      {entries.map((entry) => <EntryStory key={entry.id} entry={entry} about={about?.(entry)} actions={actions?.(entry)} />)}
    </ol>
    <Pagination label="Activity pages" count={count} pageSize={ACTIVITY_PAGE_SIZE} pageNumber={pageNumber} hrefFor={hrefFor} />
  </>
)

/**
 * The flag's activity, newest first, a page at a time, in words: who did what, each change as a
 * sentence, the release conditions' before and after compared line by line. An entry that changed the
 * flag offers to restore what it changed (see RestoreVersion).
 */
export const ActivityPanel = ({ projectId, flag, pageNumber, onRestore }: {
  readonly projectId: string
  readonly flag: Flag
  readonly pageNumber: number
  readonly onRestore: (values: RestoredValues) => Promise<void>
}) => {
  const options = { params: { project_id: projectId, id: String(flag.id) }, query: { limit: String(ACTIVITY_PAGE_SIZE), page: String(pageNumber) } }
  const activity = useApi(PATH, options)
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <Resourceful resource={activity} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(page) =>
          page.total_count === 0
            ? <Empty title="Nothing has happened to this flag yet." />
            : (
              <ActivityPage
                entries={page.results}
                count={page.total_count}
                pageNumber={pageNumber}
                hrefFor={(number) => hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "activity", pageNumber: number })}
                actions={(entry) => <RestoreVersion flag={flag} entry={entry} onRestore={onRestore} />}
              />
            )}
      </Resourceful>
    </section>
  )
}
