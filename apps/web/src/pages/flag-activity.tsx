import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { EntryStory } from "../flags/activity-entry.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { ACTIVITY_PAGE_SIZE, ActivityList } from "../ui/activity-list.tsx"
import { PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"

const PATH = "/api/projects/:project_id/feature_flags/activity/"

/**
 * Every flag's activity in the project, newest first, a page at a time, told as each flag's own
 * activity tab tells it; each entry names its flag and links to that flag's activity, where an entry
 * can be restored.
 */
export default function FlagActivityPage({ projectId, pageNumber }: { readonly projectId: string; readonly pageNumber: number }) {
  const options = { params: { project_id: projectId }, query: { limit: String(ACTIVITY_PAGE_SIZE), page: String(pageNumber) } }
  const activity = useApi(PATH, options)
  const firstPage = hrefOf({ page: "flagActivity", projectId, pageNumber: 1 })
  return (
    <>
      <ProjectHead projectId={projectId} current="flagActivity" title="Flag activity" />
      <h2>Flag activity</h2>
      <Resourceful resource={activity} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(page) =>
          page.total_count === 0
            ? <Empty title="Nothing has happened to this project's flags yet." />
            : page.results.length === 0
            ? <PastTheEnd firstPage={firstPage} />
            : (
              <ActivityList
                entries={page.results}
                count={page.total_count}
                pageNumber={pageNumber}
                hrefFor={(number) => hrefOf({ page: "flagActivity", projectId, pageNumber: number })}
              >
                {(entry) => (
                  <EntryStory
                    entry={entry}
                    about={
                      <p className="story-about">
                        <Link href={hrefOf({ page: "flag", projectId, flagId: entry.item_id, tab: "activity", pageNumber: 1 })}>
                          {entry.detail.name ?? `Flag ${entry.item_id}`}
                        </Link>
                      </p>
                    }
                  />
                )}
              </ActivityList>
            )}
      </Resourceful>
    </>
  )
}
