import { useCallback, useEffect, useState } from "react"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { cohortKind, cohortName, COHORTS_PATH } from "../cohorts/cohort.ts"
import { Link, navigate, recordInUrl } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { TextField } from "../ui/field.tsx"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { TableScroll } from "../ui/table-scroll.tsx"
import { When } from "../ui/when.tsx"

const PAGE_SIZE = 20
/** How long typing pauses before the list follows it. */
const TYPING_PAUSE_MS = 300

/** The search, followed as it is typed: `onSearch` has it once typing pauses. */
const Search = ({ search, onSearch }: { readonly search: string; readonly onSearch: (search: string) => void }) => {
  const [text, setText] = useState(search)
  // Back and forward change the URL's search: the field shows it (unless it is what is typed already).
  useEffect(() => setText((typed) => typed.trim() === search ? typed : search), [search])
  useEffect(() => {
    if (text.trim() === search) return
    const wait = setTimeout(() => onSearch(text.trim()), TYPING_PAUSE_MS)
    return () => clearTimeout(wait)
  }, [text, search, onSearch])
  return (
    <form role="search" aria-label="Search cohorts" className="filters" onSubmit={(event) => event.preventDefault()}>
      <TextField label="Search" type="search" name="search" value={text} onValue={setText} hint="By name, as you type" />
    </form>
  )
}

/** A project's cohorts, searched by name and paged by the URL, each linking to its page. */
export default function CohortsPage({ projectId, ...route }: {
  readonly projectId: string
  readonly search: string
  readonly pageNumber: number
}) {
  // What the list shows: the URL's, and a search as it is typed (written into the URL without a
  // navigation, which would move the keyboard away from the field).
  const [{ search, pageNumber }, setShown] = useState({ search: route.search, pageNumber: route.pageNumber })
  useEffect(() => setShown({ search: route.search, pageNumber: route.pageNumber }), [route.search, route.pageNumber])
  const onSearch = useCallback((typed: string) => {
    recordInUrl(hrefOf({ page: "cohorts", projectId, search: typed, pageNumber: 1 }))
    setShown({ search: typed, pageNumber: 1 })
  }, [projectId])
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
      <Search search={search} onSearch={onSearch} />
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
