import { useState } from "react"
import { asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { navigate } from "../router/navigation.tsx"
import { ConfirmButton } from "../ui/confirm-button.tsx"
import { MEMBER_PATH } from "./paths.ts"

/** Leaving the organization (`members/@me/`); the API refuses its last owner, in its words. */
export const LeaveOrganization = ({ organizationId, name }: { readonly organizationId: string; readonly name: string }) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const leave = () => {
    setBusy(true)
    setError(undefined)
    request("DELETE", MEMBER_PATH, { params: { organization_id: organizationId, user__uuid: "@me" } })
      .then(
        () => {
          // Home first, then everything read again: the user's organizations have changed.
          navigate("/", { replace: true })
          invalidate()
        },
        (cause: unknown) => {
          setBusy(false)
          setError(asApiError(cause).detail)
        }
      )
  }
  return (
    <section aria-labelledby="leave-heading" className="form-section">
      <h2 id="leave-heading">Leave {name}</h2>
      <p>You will no longer see its projects. To come back, you need a new invite.</p>
      <div>
        <ConfirmButton question={`Leave ${name}?`} confirm="Leave" disabled={busy} onConfirm={leave}>Leave organization</ConfirmButton>
      </div>
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
    </section>
  )
}
