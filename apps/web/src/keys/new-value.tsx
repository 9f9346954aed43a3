import { type ReactNode, useEffect, useId, useRef } from "react"
import { CopyButton } from "../ui/copy-button.tsx"

/**
 * A key's secret, right after the API made it (a create or a roll): the only time anyone sees it. It
 * lives in this component's state alone, never in the shared resources, so leaving the page or
 * reloading it forgets it; the API keeps only its hash.
 */
export const NewKeyValue = ({ label, value, children }: {
  readonly label: string
  readonly value: string
  readonly children?: ReactNode
}) => {
  const id = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  // Focus moves here, so a screen reader reads the warning and the keyboard is at the copy button next.
  useEffect(() => heading.current?.focus(), [value])
  return (
    <section aria-labelledby={id} className="new-key-value">
      <h2 id={id} ref={heading} tabIndex={-1}>The value of “{label}”</h2>
      <p className="warning">
        <strong>Copy it now: it is shown this once.</strong> Hedgerow keeps only a hash of it, so it cannot be shown again;
        if it is lost, roll the key for a new value.
      </p>
      <p className="key-value">
        <code>{value}</code> <CopyButton text={value} what="the key's value" />
      </p>
      {children}
    </section>
  )
}
