import { type ReactNode, useEffect, useRef } from "react"

/**
 * A refusal or a failure, read out as it appears and given the focus, so that the keyboard goes on from
 * the message (a screen reader reads it there) rather than from the top of the page, where focus lands
 * when the control that had it is disabled or goes away. Shown anew, it takes the focus anew: render it
 * again with a new `key`, or not at all while a retry is out.
 */
export const Alert = ({ className, children }: { readonly className?: string | undefined; readonly children: ReactNode }) => {
  const alert = useRef<HTMLDivElement>(null)
  useEffect(() => alert.current?.focus(), [])
  return <div ref={alert} role="alert" tabIndex={-1} className={className}>{children}</div>
}
