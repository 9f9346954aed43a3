import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from "react"

/** The browser's location is the router's only state: pages read it, and `navigate` changes it. */
const listeners = new Set<() => void>()

const notify = () => {
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  if (listeners.size === 1) window.addEventListener("popstate", notify)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) window.removeEventListener("popstate", notify)
  }
}

const current = () => window.location.pathname + window.location.search

/** The current path and query; re-renders on every navigation, back and forward included. */
export const useLocation = (): string => useSyncExternalStore(subscribe, current)

/** Whether the last navigation asked to leave the focus where it is (see `navigate`'s `keepFocus`). */
let keepingFocus = false

/** Whether the navigation just made leaves the focus where it was: asked once, after each navigation. */
export const focusKept = (): boolean => {
  const kept = keepingFocus
  keepingFocus = false
  return kept
}

/**
 * Goes to `href` on this site: a new history entry, or with `replace` the current one changed.
 * `keepFocus`: the page stays, in a new state (a search as it is typed), so the focus is not moved to it.
 */
export const navigate = (href: string, options: { readonly replace?: boolean; readonly keepFocus?: boolean } = {}) => {
  if (href === current()) return
  keepingFocus = options.keepFocus === true
  if (options.replace === true) window.history.replaceState(null, "", href)
  else window.history.pushState(null, "", href)
  notify()
}

/** A link that navigates in the page on a plain click and behaves as any link otherwise (new tab, copy). */
export const Link = ({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly href: string }) => {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    if (rest.target !== undefined && rest.target !== "_self") return
    event.preventDefault()
    navigate(href)
  }
  return <a href={href} onClick={follow} {...rest} />
}
