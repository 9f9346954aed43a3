import { useEffect, useId, useRef } from "react"
import { CopyButton } from "../ui/copy-button.tsx"

/**
 * A new webhook's signing secret, right after the API made it: the only answer that carries it. It lives
 * in the page's state alone, never in the shared resources, so leaving or reloading the page forgets it.
 */
export const WebhookSecret = ({ url, secret }: { readonly url: string; readonly secret: string }) => {
  const id = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  // Focus moves here, so a screen reader reads the warning and the keyboard is at the copy button next.
  useEffect(() => heading.current?.focus(), [secret])
  return (
    <section aria-labelledby={id} className="new-key-value">
      <h2 id={id} ref={heading} tabIndex={-1}>The signing secret of {url}</h2>
      <p className="warning">
        <strong>Copy it now: it is shown this once.</strong> The receiver checks each delivery's signature with it
        (Standard Webhooks); no page or answer shows it again.
      </p>
      <p className="key-value">
        <code>{secret}</code> <CopyButton text={secret} what="the webhook's signing secret" />
      </p>
    </section>
  )
}
