import { useId, useState } from "react"
import { ApiError } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { logOut } from "../api/session.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf, type Route } from "../router/routes.ts"
import { Alert } from "../ui/alert.tsx"
import { useDisclosure } from "../ui/disclosure.ts"
import type { Me } from "./me.ts"

/** The keys link marks the list as the page in view, and the list's own pages (a key, a new one) as within it. */
const keysCurrent = (route: Route): "page" | "true" | undefined =>
  route.page === "personalApiKeys" ? "page" : route.page === "newPersonalApiKey" || route.page === "personalApiKey" ? "true" : undefined

const LogOutButton = () => {
  const [error, setError] = useState<string | undefined>(undefined)
  const leave = () =>
    logOut().then(
      () => {
        // To the log-in page first, so that nothing of the shell asks again for what is gone; a page's
        // unsaved edits are not asked about, as the session they would be saved with is gone.
        navigate(hrefOf({ page: "login", next: undefined }), { replace: true, force: true })
        invalidate()
      },
      (cause: unknown) => setError(cause instanceof ApiError ? cause.detail : String(cause))
    )
  return (
    <>
      <button type="button" onClick={leave}>Log out</button>
      {error === undefined ? null : <Alert className="inline-error">{error}</Alert>}
    </>
  )
}

/**
 * Who is logged in, their keys and two-factor settings, and Log out. On a wide screen they stand in the
 * header's line; on a narrow one (the style sheet decides where) behind an "Account" button that opens
 * them as a panel, a disclosure as the switcher is.
 */
export const AccountMenu = ({ me, route }: { readonly me: Me; readonly route: Route }) => {
  const { open, toggle, button, container, onKeyDown } = useDisclosure()
  const panelId = useId()
  return (
    <div className="account" ref={container} onKeyDown={onKeyDown}>
      <button type="button" className="account-toggle" ref={button} aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        Account
      </button>
      <div id={panelId} className={open ? "account-panel open" : "account-panel"}>
        <span className="email">{me.email}</span>
        <Link href={hrefOf({ page: "personalApiKeys" })} aria-current={keysCurrent(route)}>Personal API keys</Link>
        <Link href={hrefOf({ page: "twoFactor" })} aria-current={route.page === "twoFactor" ? "page" : undefined}>Two-factor authentication</Link>
        <LogOutButton />
      </div>
    </div>
  )
}
