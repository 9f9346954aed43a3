import { type ReactNode, useEffect, useId, useRef } from "react"

/**
 * Asks before something that cannot be undone: a modal dialog (the browser's own, so focus stays in it
 * and Escape cancels), opened with focus on Cancel, the safe choice.
 */
export const ConfirmDialog = ({ open, title, confirmLabel, busy, onConfirm, onCancel, children }: {
  readonly open: boolean
  readonly title: string
  readonly confirmLabel: string
  readonly busy: boolean
  readonly onConfirm: () => void
  readonly onCancel: () => void
  /** What will happen, and any refusal of the API's. */
  readonly children: ReactNode
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      className="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onCancel()
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={onCancel} disabled={busy}>Cancel</button>
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>{confirmLabel}</button>
      </div>
    </dialog>
  )
}
