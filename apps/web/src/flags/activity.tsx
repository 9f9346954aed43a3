import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { ACTIVITY_PAGE_SIZE, ActivityList } from "../ui/activity-list.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { EntryStory } from "./activity-entry.tsx"
import type { Flag } from "./flag.tsx"
import { RestoreVersion, type RestoredValues } from "./restore-version.tsx"

const PATH = "/api/projects/:project_id/feature_flags/:id/activity/"

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
              <ActivityList
                entries={page.results}
                count={page.total_count}
                pageNumber={pageNumber}
                hrefFor={(number) => hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "activity", pageNumber: number })}
              >
                {(entry) => <EntryStory entry={entry} actions={<RestoreVersion flag={flag} entry={entry} onRestore={onRestore} />} />}
              </ActivityList>
            )}
      </Resourceful>
    </section>
  )
}
