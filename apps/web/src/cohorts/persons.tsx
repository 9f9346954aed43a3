import { useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { AddOneForm } from "../ui/add-one-form.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { COHORT_PATH, cohortsPrefix } from "./cohort.ts"
import { distinctIdsOf } from "./draft.ts"

const PERSONS_PATH = "/api/projects/:project_id/cohorts/:id/persons/"
const ADD_PATH = "/api/projects/:project_id/cohorts/:id/add_persons_to_static_cohort/"
const REMOVE_PATH = "/api/projects/:project_id/cohorts/:id/remove_person_from_static_cohort/"
const PAGE_SIZE = 50

/**
 * A static cohort's members by distinct id, a page at a time (the API gives the next page's link, not a
 * count), with a form to add some and a Remove button for each; `readOnly` (a deleted cohort) shows the
 * list alone. A removal is done at once: adding the id again undoes it.
 */
export const CohortPersons = ({ projectId, cohortId, pageNumber, readOnly }: {
  readonly projectId: string
  readonly cohortId: string
  readonly pageNumber: number
  readonly readOnly: boolean
}) => {
  const params = { project_id: projectId, id: cohortId }
  const options = { params, query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) } }
  const persons = useApi(PERSONS_PATH, options)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)
  // The list and the cohort (its count) read again and swapped in together, so nothing of the page is
  // unmounted (what was typed, where the keyboard is); the rest of the project's cohorts is read anew.
  const refresh = () =>
    Promise.all([request("GET", COHORT_PATH, { params }), request("GET", PERSONS_PATH, options)]).then(([cohort, list]) => {
      invalidateWith(cohortsPrefix(projectId), urlOf(COHORT_PATH, { params }), cohort)
      invalidateWith(urlOf(PERSONS_PATH, options), urlOf(PERSONS_PATH, options), list)
    })

  const add = async (text: string) => {
    const list = distinctIdsOf(text)
    setError(undefined)
    setNotice(undefined)
    await request("PATCH", ADD_PATH, { params, payload: { person_ids: list } })
    await refresh()
    setNotice(list.length === 1 ? `${list[0]} was added.` : `${list.length} distinct ids were added.`)
  }
  // The removed row and its button go: the keyboard goes on from the list's heading.
  const remove = (distinctId: string) => {
    setBusy(true)
    setError(undefined)
    setNotice(undefined)
    request("PATCH", REMOVE_PATH, { params, payload: { person_id: distinctId } })
      .then(refresh)
      .then(() => {
        setNotice(`${distinctId} was removed.`)
        heading.current?.focus()
      }, (cause: unknown) => setError(asApiError(cause)))
      .finally(() => setBusy(false))
  }

  return (
    <section aria-labelledby="cohort-persons-title">
      <h2 id="cohort-persons-title" ref={heading} tabIndex={-1}>Persons</h2>
      {readOnly ? null : (
        <AddOneForm label="Distinct IDs to add" name="Add persons" attr="person_ids" hint="One a line, or comma-separated." button="Add persons" multiline add={add} />
      )}
      <p role="status" className="notice">{notice ?? ""}</p>
      {error === undefined ? null : <p role="alert" className="form-error">{error.detail}</p>}
      <Resourceful resource={persons} onRetry={() => invalidate(urlOf(PERSONS_PATH, options))}>
        {(page) =>
          page.results.length === 0
            ? (
              <Empty title={pageNumber === 1 ? "This cohort has no persons yet." : "There is nothing on this page."}>
                {pageNumber === 1 ? null : <Link href={hrefOf({ page: "cohort", projectId, cohortId, tab: "persons", pageNumber: 1 })}>Go to the first page</Link>}
              </Empty>
            )
            : (
              <>
                <ul className="person-list">
                  {page.results.map((person) => {
                    const distinctId = person.distinct_ids[0] ?? person.name
                    return (
                      <li key={distinctId}>
                        <code>{distinctId}</code>
                        {readOnly ? null : (
                          <button type="button" disabled={busy} onClick={() => remove(distinctId)}>
                            Remove<span className="visually-hidden"> {distinctId}</span>
                          </button>
                        )}
                      </li>
                    )
                  })}
                </ul>
                {page.previous === null && page.next === null ? null : (
                  <nav className="pagination" aria-label="Persons pages">
                    {page.previous === null || pageNumber === 1 ? null : (
                      <Link href={hrefOf({ page: "cohort", projectId, cohortId, tab: "persons", pageNumber: pageNumber - 1 })} rel="prev">Previous page</Link>
                    )}
                    <span>Page {pageNumber}</span>
                    {page.next === null ? null : (
                      <Link href={hrefOf({ page: "cohort", projectId, cohortId, tab: "persons", pageNumber: pageNumber + 1 })} rel="next">Next page</Link>
                    )}
                  </nav>
                )}
              </>
            )}
      </Resourceful>
    </section>
  )
}
