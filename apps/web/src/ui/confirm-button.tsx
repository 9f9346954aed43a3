import { type ReactNode, useEffect, useRef, useState } from "react"

/**
 * A button whose action is asked about first: a click shows the question with a confirming button
 * (focused, so Enter confirms and Tab reaches Cancel); Cancel puts focus back on the first button.
 */
export const ConfirmButton = ({ children, question, confirm, disabled, onConfirm }: {
  readonly children: ReactNode
  readonly question: string
  readonly confirm: string
  readonly disabled?: boolean | undefined
  readonly onConfirm: () => void
}) => {
  const [asking, setAsking] = useState(false)
  const first = useRef<HTMLButtonElement>(null)
  const yes = useRef<HTMLButtonElement>(null)
  const asked = useRef(false)
  useEffect(() => {
    if (asking) yes.current?.focus()
    else if (asked.current) first.current?.focus()
    asked.current = asking
  }, [asking])
  if (!asking) return <button type="button" ref={first} disabled={disabled} onClick={() => setAsking(true)}>{children}</button>
  return (
    <span role="group" aria-label={question} className="confirm">
      <span>{question}</span>
      <button
        type="button"
        ref={yes}
        className="danger"
        onClick={() => {
          asked.current = false
          setAsking(false)
          onConfirm()
        }}
      >
        {confirm}
      </button>
      <button type="button" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  )
}
