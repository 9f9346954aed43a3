import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from "react"

/** The browser's location is the router's only state: pages read it, and `navigate` changes it. */
const listeners = new Set<() => void>()

const notify = () => {
  for (const listener of listeners) listener()
}

/**
 * What a page with unsaved edits asks before the console leaves it: given the way to leave, it answers
 * true to let the navigation go on now, or false to hold it, and calls `leave` itself if the person agrees.
 */
export type LeaveGuard = (leave: () => void) => boolean

let leaveGuard: LeaveGuard | undefined
/** Where the console was at its last navigation, to go back to when the guard holds a Back or Forward. */
let shown = ""

/** Registers `guard` while the calling page is mounted and gives it one; `undefined` asks nothing. */
export const useLeaveGuard = (guard: LeaveGuard | undefined) => {
  useEffect(() => {
    if (guard === undefined) return
    leaveGuard = guard
    shown = current()
    return () => {
      if (leaveGuard === guard) leaveGuard = undefined
    }
  }, [guard])
}

/** Back or Forward: the browser has moved already, so a held one is moved back until the person agrees. */
const popped = () => {
  const target = current()
  if (leaveGuard !== undefined && target !== shown && !leaveGuard(() => navigate(target, { force: true }))) {
    window.history.pushState(null, "", shown)
    return
  }
  shown = target
  notify()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  if (listeners.size === 1) window.addEventListener("popstate", popped)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) window.removeEventListener("popstate", popped)
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
 * Goes to `href` on this site: a new history entry, or with `replace` the current one changed. A page's
 * leave guard is asked first, unless `force` says it has been. `keepFocus`: the page stays, in a new
 * state (a search as it is typed, a list's order), so the focus is not moved to it.
 */
export const navigate = (
  href: string,
  options: { readonly replace?: boolean; readonly force?: boolean; readonly keepFocus?: boolean } = {}
) => {
  if (href === current()) return
  if (options.force !== true && leaveGuard !== undefined && !leaveGuard(() => navigate(href, { ...options, force: true }))) return
  keepingFocus = options.keepFocus === true
  if (options.replace === true) window.history.replaceState(null, "", href)
  else window.history.pushState(null, "", href)
  shown = href
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
