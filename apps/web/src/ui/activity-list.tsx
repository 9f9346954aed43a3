import { Fragment, type ReactNode } from "react"
import { Pagination } from "./pagination.tsx"

/** How many activity entries a page shows, on every activity list. */
export const ACTIVITY_PAGE_SIZE = 10

/**
 * A page of activity entries, newest first, each told by `children` (an `li`), and the links to the
 * other pages. What an entry says is the page's; the list's shape is the same for a flag's, a cohort's
 * and the project's feed.
 */
export const ActivityList = <T extends { readonly id: string }>({ entries, count, pageNumber, hrefFor, children }: {
  readonly entries: ReadonlyArray<T>
  readonly count: number
  readonly pageNumber: number
  readonly hrefFor: (pageNumber: number) => string
  readonly children: (entry: T) => ReactNode
}) => (
  <>
    <ol className="activity">
      {entries.map((entry) => <Fragment key={entry.id}>{children(entry)}</Fragment>)}
    </ol>
    <Pagination label="Activity pages" count={count} pageSize={ACTIVITY_PAGE_SIZE} pageNumber={pageNumber} hrefFor={hrefFor} />
  </>
)
