import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { cohortKind, cohortName, COHORTS_PATH } from "../cohorts/cohort.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { TextField } from "../ui/field.tsx"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { useSearchAsYouType } from "../ui/search-as-you-type.ts"
import { Empty, Resourceful } from "../ui/states.tsx"
import { TableScroll } from "../ui/table-scroll.tsx"
import { When } from "../ui/when.tsx"

const PAGE_SIZE = 20

/** A project's cohorts, searched by name and paged by the URL, each linking to its page. */
export default function CohortsPage({ projectId, search, pageNumber }: {
  readonly projectId: string
  readonly search: string
  readonly pageNumber: number
}) {
  const [typed, setTyped] = useSearchAsYouType(search, (search) => hrefOf({ page: "cohorts", projectId, search, pageNumber: 1 }))
  const options = {
    params: { project_id: projectId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE), search: search === "" ? undefined : search, basic: "true" }
  }
  const cohorts = useApi(COHORTS_PATH, options)
  return (
    <>
      <ProjectHead projectId={projectId} current="cohorts" title="Cohorts" />
      <div className="page-head">
        <h2>Cohorts</h2>
        <button type="button" className="primary" onClick={() => navigate(hrefOf({ page: "newCohort", projectId }))}>New cohort</button>
      </div>
      <p>Groups of persons that flags can target: by their properties (dynamic), or a list of distinct ids (static).</p>
      <form role="search" aria-label="Search cohorts" className="filters" onSubmit={(event) => event.preventDefault()}>
        <TextField label="Search" type="search" name="search" value={typed} onValue={setTyped} hint="By name, as you type" />
      </form>
      <Resourceful resource={cohorts} onRetry={() => invalidate(urlOf(COHORTS_PATH, options))}>
        {(page) =>
          page.count === 0
            ? (
              <Empty title={search === "" ? "This project has no cohorts yet." : `No cohort's name contains “${search}”.`}>
                {search === "" ? null : <Link href={hrefOf({ page: "cohorts", projectId, search: "", pageNumber: 1 })}>Clear the search</Link>}
              </Empty>
            )
            : page.results.length === 0
            ? <PastTheEnd firstPage={hrefOf({ page: "cohorts", projectId, search, pageNumber: 1 })} />
            : (
              <>
                <TableScroll label="Cohorts">
                  <table>
                    <caption className="visually-hidden">Cohorts, {page.count} in all</caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Type</th>
                        <th scope="col">Persons</th>
                        <th scope="col">Created by</th>
                        <th scope="col">Created</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.results.map((cohort) => (
                        <tr key={cohort.id}>
                          <td>
                            <Link href={hrefOf({ page: "cohort", projectId, cohortId: String(cohort.id), tab: "settings", pageNumber: 1 })}>
                              {cohortName(cohort)}
                            </Link>
                          </td>
                          <td>{cohortKind(cohort)}</td>
                          <td>{cohort.is_static ? cohort.count ?? 0 : "Matched at evaluation"}</td>
                          <td>{cohort.created_by?.email ?? ""}</td>
                          <td><When at={cohort.created_at} dateOnly /></td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
                <Pagination
                  label="Cohorts pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "cohorts", projectId, search, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
