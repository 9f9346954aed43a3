import { type ButtonHTMLAttributes, type ReactNode, useId, useRef, useState } from "react"
import { asApiError } from "../api/client.ts"

/**
 * A button whose action is asked about first, in a modal dialog: the browser's own, so focus stays in it,
 * Escape cancels, and closing gives focus back to the button. It opens on Cancel, the safe choice. While
 * the action runs the dialog waits, its buttons enabled so the keyboard keeps its place; a refusal stays
 * in it, in the API's words. Once the action is done the dialog closes, and only then `onDone` has the
 * answer, so that focus it moves is not taken back by the closing.
 *
 * For what cannot be undone where it was done (revoke, roll, remove, leave, cancel an invite, delete a
 * domain), and for what changes what people get at once (turning a flag off, a change to many flags).
 * What can be undone where it was done (a flag's delete beside its Restore, a pause, a role's access) is
 * done at once.
 */
export const ConfirmDialog = <T,>({ label, title, confirmLabel, dismissLabel = "Cancel", disabled, action, onDone, children, ask = true, button }: {
  /** The button's content: short on screen, named in full for a screen reader when it stands in a list. */
  readonly label: ReactNode
  /** The question, naming what it is about. */
  readonly title: string
  readonly confirmLabel: string
  /** The safe choice's words, when "Cancel" would be read as the action (cancelling an invite). */
  readonly dismissLabel?: string
  readonly disabled?: boolean | undefined
  readonly action: () => Promise<T>
  readonly onDone?: ((result: T) => void) | undefined
  /** What will happen. */
  readonly children: ReactNode
  /**
   * False when the change is safe as things stand (a switch turned on, where turning it off is asked
   * about): the button then does the action at once, and a refusal is shown beside it.
   */
  readonly ask?: boolean | undefined
  /** More of the button's attributes: a switch's role, state and name. */
  readonly button?: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "disabled" | "onClick"> | undefined
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const open = () => {
    setError(undefined)
    dialog.current?.showModal()
    cancel.current?.focus()
  }
  const close = () => {
    if (!busy) dialog.current?.close()
  }
  const run = () => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    action().then(
      (result) => {
        setBusy(false)
        dialog.current?.close()
        onDone?.(result)
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause).detail)
      }
    )
  }
  return (
    <>
      <button type="button" {...button} disabled={disabled} onClick={ask ? open : run}>{label}</button>
      {!ask && error !== undefined ? <span role="alert" className="inline-error">{error}</span> : null}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-busy={busy}
        className="confirm-dialog"
        onCancel={(event) => {
          if (busy) event.preventDefault()
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
        <div className="dialog-actions">
          <button type="button" ref={cancel} onClick={close}>{dismissLabel}</button>
          <button type="button" className="danger" onClick={run}>{confirmLabel}</button>
        </div>
      </dialog>
    </>
  )
}
