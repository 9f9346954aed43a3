import { Link } from "../router/navigation.tsx"
import { Empty } from "./states.tsx"

/**
 * Previous and next pages of a list, as links (the page is in the URL), with where the list stands.
 * `hrefFor` makes the URL of a page number.
 */
export const Pagination = ({ count, pageSize, pageNumber, hrefFor, label }: {
  readonly count: number
  readonly pageSize: number
  readonly pageNumber: number
  readonly hrefFor: (pageNumber: number) => string
  readonly label: string
}) => {
  const pages = Math.max(1, Math.ceil(count / pageSize))
  if (pages === 1) return null
  return (
    <nav className="pagination" aria-label={label}>
      {pageNumber > 1 ? <Link href={hrefFor(pageNumber - 1)} rel="prev">Previous page</Link> : null}
      <span>Page {Math.min(pageNumber, pages)} of {pages}</span>
      {pageNumber < pages ? <Link href={hrefFor(pageNumber + 1)} rel="next">Next page</Link> : null}
    </nav>
  )
}

/** A page past the end of a list (the list shrank, or a link was edited): says so, and links to the first page. */
export const PastTheEnd = ({ firstPage }: { readonly firstPage: string }) => (
  <Empty title="There is nothing on this page.">
    <Link href={firstPage}>Go to the first page</Link>
  </Empty>
)
