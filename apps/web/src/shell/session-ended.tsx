import { useEffect, useId, useRef, useSyncExternalStore } from "react"
import { useLocation } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"

/**
 * How many calls the API refused for want of a session while the shell was on screen: more than none,
 * and the session this page was showing has ended (logged out elsewhere, expired, revoked). It lasts
 * until the page is loaded again, which is what "Log in again" does, so nothing read under the old
 * session outlives it.
 */
let refusals = 0
/** How many shells are mounted: none means no one was logged in here, and the log-in page comes next. */
let shells = 0
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Counts the shell as on screen while the caller is mounted. */
export const useShellPresence = () =>
  useEffect(() => {
    shells += 1
    return () => {
      shells -= 1
    }
  }, [])

/** Counts a refusal as the session's end when a shell is on screen, and says whether it did. */
export const endSessionInShell = (): boolean => {
  if (shells === 0) return false
  refusals += 1
  for (const listener of listeners) listener()
  return true
}

const useRefusals = (): number => useSyncExternalStore(subscribe, () => refusals)

/** Whether the session has ended under the shell. */
export const useSessionEnded = (): boolean => useRefusals() > 0

/**
 * Says the session has ended, in a modal dialog (focus on "Log in again"), and, once the dialog is closed
 * to read or copy what the page holds, in a line above the page; the dialog opens again at the next
 * refused call. Logging in again (a page load, not an in-page navigation) comes back to the page in view.
 */
export const SessionEnded = () => {
  const dialog = useRef<HTMLDialogElement>(null)
  const logInAgain = useRef<HTMLAnchorElement>(null)
  const titleId = useId()
  const location = useLocation()
  const logIn = hrefOf({ page: "login", next: location === "/" ? undefined : location })
  const count = useRefusals()
  useEffect(() => {
    if (dialog.current?.open === false) dialog.current.showModal()
    logInAgain.current?.focus()
  }, [count])
  return (
    <>
      <dialog ref={dialog} role="alertdialog" aria-labelledby={titleId} className="confirm-dialog">
        <h2 id={titleId}>Your session has ended</h2>
        <p>You were logged out (in another tab, say), or your session expired or was revoked. Log in again to come back to this page.</p>
        <p>Anything typed on this page and not saved is lost when you leave it: close this to copy it first.</p>
        <div className="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>Close</button>
          <a className="button primary" href={logIn} ref={logInAgain}>Log in again</a>
        </div>
      </dialog>
      <p className="session-ended">
        Your session has ended. <a href={logIn}>Log in again</a>
      </p>
    </>
  )
}
