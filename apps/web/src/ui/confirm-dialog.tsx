import { type ReactNode, type RefObject, useCallback, useId, useRef, useState } from "react"
import { asApiError } from "../api/client.ts"
import { Alert } from "./alert.tsx"
import { SwitchButton } from "./switch-button.tsx"

/** What opens a `Confirmation`: its dialog and its safe button, to focus on opening. */
export interface ConfirmationRefs {
  readonly dialog: RefObject<HTMLDialogElement | null>
  readonly cancel: RefObject<HTMLButtonElement | null>
}

/** A `Confirmation`'s refs and the function that opens it, for a question asked by code, not by a button of its own. */
export const useConfirmation = () => {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const open = useCallback(() => {
    dialog.current?.showModal()
    cancel.current?.focus()
  }, [])
  return { refs: { dialog, cancel } satisfies ConfirmationRefs, open }
}

/** What is asked, and what is done once agreed. */
interface Question<T> {
  /** The question, naming what it is about. */
  readonly title: string
  readonly confirmLabel: string
  /** The safe choice's words, when "Cancel" would be read as the action (cancelling an invite). */
  readonly dismissLabel?: string
  readonly action: () => Promise<T>
  readonly onDone?: ((result: T) => void) | undefined
  /** What will happen. */
  readonly children: ReactNode
}

/**
 * The question itself, in the browser's own modal dialog, so focus stays in it, Escape cancels, and
 * closing gives focus back to what had it. It opens on Cancel, the safe choice. While the action runs
 * the dialog waits, its buttons enabled so the keyboard keeps its place; a refusal stays in it, in the
 * API's words. Once the action is done the dialog closes, and only then `onDone` has the answer, so that
 * focus it moves is not taken back by the closing.
 */
export const Confirmation = <T,>({ refs, title, confirmLabel, dismissLabel = "Cancel", action, onDone, children }:
  & { readonly refs: ConfirmationRefs }
  & Question<T>) => {
  const titleId = useId()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const close = () => {
    if (!busy) refs.dialog.current?.close()
  }
  const confirm = () => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    action().then(
      (result) => {
        setBusy(false)
        refs.dialog.current?.close()
        onDone?.(result)
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause).detail)
      }
    )
  }
  return (
    <dialog
      ref={refs.dialog}
      aria-labelledby={titleId}
      aria-busy={busy}
      className="confirm-dialog"
      onCancel={(event) => {
        if (busy) event.preventDefault()
      }}
      onClose={() => setError(undefined)}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      {error === undefined ? null : <Alert className="form-error">{error}</Alert>}
      <div className="dialog-actions">
        <button type="button" ref={refs.cancel} onClick={close}>{dismissLabel}</button>
        <button type="button" className="danger" onClick={confirm}>{confirmLabel}</button>
      </div>
    </dialog>
  )
}

/**
 * A button whose action is asked about first, in a `Confirmation`.
 *
 * For what cannot be undone where it was done (revoke, roll, remove, leave, cancel an invite, delete a
 * domain) and for a flag's risky changes. What is undone as easily (a pause, a role's access) is done at once.
 */
export const ConfirmDialog = <T,>({ label, disabled, switchedOn, ...question }:
  & {
    /** The button's content: short on screen, named in full for a screen reader when it stands in a list. */
    readonly label: ReactNode
    readonly disabled?: boolean | undefined
    /** When given, the button is an on/off switch in this state, which asks before it turns over. */
    readonly switchedOn?: boolean | undefined
  }
  & Question<T>) => {
  const { refs, open } = useConfirmation()
  return (
    <>
      {switchedOn === undefined
        ? <button type="button" disabled={disabled} onClick={open}>{label}</button>
        : <SwitchButton on={switchedOn} disabled={disabled} onClick={open}>{label}</SwitchButton>}
      <Confirmation refs={refs} {...question} />
    </>
  )
}
