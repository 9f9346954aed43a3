import type { ReactNode } from "react"

/** The API's default order of the flags list: newest first. */
export const DEFAULT_ORDER = "-created_at"

/**
 * A column heading that sorts the list by `field`, as the API's `order` names it: ascending first, then
 * descending, as the arrow shows; `aria-sort` says which to a screen reader.
 */
export const SortHeader = ({ field, order, onOrder, className, children }: {
  readonly field: string
  /** The list's order now (the API's, `-` for descending). */
  readonly order: string
  readonly onOrder: (order: string) => void
  readonly className?: string | undefined
  readonly children: ReactNode
}) => {
  const direction = order === field ? "ascending" : order === `-${field}` ? "descending" : undefined
  return (
    <th scope="col" className={className} aria-sort={direction ?? "none"}>
      <button type="button" className="sort" onClick={() => onOrder(direction === "ascending" ? `-${field}` : field)}>
        {children}
        <span aria-hidden="true" className="sort-arrow">{direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}</span>
      </button>
    </th>
  )
}
