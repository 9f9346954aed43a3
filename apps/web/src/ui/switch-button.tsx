import type { ReactNode } from "react"

/**
 * An on/off switch: a button with role="switch" whose `aria-checked` is its state, drawn as a track whose
 * knob sits right, on the accent, when on, with its words beside it. What a press does (at once, or asked
 * first) is the caller's.
 */
export const SwitchButton = ({ on, onClick, disabled, label, children }: {
  readonly on: boolean
  readonly onClick: () => void
  readonly disabled?: boolean | undefined
  /** The switch's name for a screen reader, when its visible words do not say what it switches. */
  readonly label?: string | undefined
  readonly children: ReactNode
}) => (
  <button type="button" role="switch" aria-checked={on} aria-label={label} className="switch-button" disabled={disabled} onClick={onClick}>
    <span className="switch-track" aria-hidden="true" />
    {children}
  </button>
)
