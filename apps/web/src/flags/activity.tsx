import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { Pagination } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const PATH = "/api/projects/:project_id/feature_flags/:id/activity/"
const PAGE_SIZE = 10

/** A stored value as text: JSON, but text as it is; nothing for a missing one. */
const shown = (value: unknown): string => value === undefined || value === null ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2)

/** The flag's activity, newest first, a page at a time: who did what, and each field's before and after. */
export const ActivityPanel = ({ projectId, flagId, pageNumber }: {
  readonly projectId: string
  readonly flagId: string
  readonly pageNumber: number
}) => {
  const options = { params: { project_id: projectId, id: flagId }, query: { limit: String(PAGE_SIZE), page: String(pageNumber) } }
  const activity = useApi(PATH, options)
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <Resourceful resource={activity} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(page) =>
          page.total_count === 0
            ? <Empty title="Nothing has happened to this flag yet." />
            : (
              <>
                <ol className="activity">
                  {page.results.map((entry) => (
                    <li key={entry.id}>
                      <p>
                        <strong>{entry.user?.email ?? entry.user?.first_name ?? "Someone"}</strong> {entry.activity} the flag{" "}
                        <When at={entry.created_at} />
                      </p>
                      {entry.detail.changes === null || entry.detail.changes.length === 0 ? null : (
                        <table className="diff">
                          <thead>
                            <tr>
                              <th scope="col">Field</th>
                              <th scope="col">Before</th>
                              <th scope="col">After</th>
                            </tr>
                          </thead>
                          <tbody>
                            {entry.detail.changes.map((change, index) => (
                              <tr key={index}>
                                <th scope="row">{change.field ?? change.action}</th>
                                <td><pre>{shown(change.before)}</pre></td>
                                <td><pre>{shown(change.after)}</pre></td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      )}
                    </li>
                  ))}
                </ol>
                <Pagination
                  label="Activity pages"
                  count={page.total_count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "flag", projectId, flagId, tab: "activity", pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </section>
  )
}
