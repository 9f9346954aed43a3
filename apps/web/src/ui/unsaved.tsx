import { type ReactNode, useCallback, useEffect, useRef } from "react"
import { type LeaveGuard, useLeaveGuard } from "../router/navigation.tsx"
import { Confirmation, useConfirmation } from "./confirm-dialog.tsx"

/**
 * While `dirty`, a form's unsaved edits are asked about before the console leaves them (a tab, any link,
 * Back or Forward: the router asks the guard), in the dialog `LeaveQuestion` draws; a reload or closing
 * the tab gets the browser's own question (`beforeunload`). Returns what `LeaveQuestion` needs.
 */
export const useUnsavedGuard = (dirty: boolean) => {
  const { refs, open } = useConfirmation()
  const leave = useRef<() => void>(() => undefined)
  const guard = useCallback<LeaveGuard>((go) => {
    leave.current = go
    open()
    return false
  }, [open])
  useLeaveGuard(dirty ? guard : undefined)
  useEffect(() => {
    if (!dirty) return
    const hold = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener("beforeunload", hold)
    return () => window.removeEventListener("beforeunload", hold)
  }, [dirty])
  return { refs, leave: () => leave.current() }
}

/** The question `useUnsavedGuard` asks, Stay its safe choice; `children` say what would be dropped. */
export const LeaveQuestion = ({ guard, children }: {
  readonly guard: ReturnType<typeof useUnsavedGuard>
  readonly children: ReactNode
}) => (
  <Confirmation
    refs={guard.refs}
    title="Leave without saving?"
    confirmLabel="Leave without saving"
    dismissLabel="Stay"
    action={() => Promise.resolve()}
    onDone={guard.leave}
  >
    {children}
  </Confirmation>
)
