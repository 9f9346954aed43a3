import type { ReactNode } from "react"

/**
 * A table that scrolls sideways within its own box when the window is narrower than it, never the page.
 * The box is a named region the keyboard can reach, so its hidden columns can be scrolled into view.
 */
export const TableScroll = ({ label, children }: { readonly label: string; readonly children: ReactNode }) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>{children}</div>
)
