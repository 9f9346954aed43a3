import { useState } from "react"
import { asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { InviteLink } from "./invite-link.tsx"
import { levelWords } from "./levels.ts"
import { INVITE_PATH, INVITES_PATH, organizationPrefix } from "./paths.ts"

type Invite = Success<"GET", typeof INVITES_PATH>["results"][number]

/** One invite: to whom, at which level, since when, whether it has expired, its link, and a way to withdraw it. */
export const InviteRow = ({ organizationId, invite, onDone }: {
  readonly organizationId: string
  readonly invite: Invite
  /** Says what the withdrawal did, on the page (the row is gone with its words). */
  readonly onDone: (words: string) => void
}) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const email = invite.target_email
  const cancel = () => {
    setBusy(true)
    setError(undefined)
    onDone("")
    request("DELETE", INVITE_PATH, { params: { organization_id: organizationId, id: invite.id } }).then(
      () => {
        onDone(`The invite for ${email} is cancelled.`)
        invalidate(organizationPrefix(organizationId, "invites"))
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause).detail)
      }
    )
  }
  return (
    <tr>
      <td>{email}</td>
      <td>{invite.first_name}</td>
      <td>{levelWords(invite.level)}</td>
      <td><time dateTime={invite.created_at}>{new Date(invite.created_at).toLocaleDateString()}</time></td>
      <td>{invite.is_expired ? <span className="badge badge-deleted">Expired</span> : <span className="badge badge-active">Pending</span>}</td>
      <td><InviteLink inviteId={invite.id} email={email} /></td>
      <td>
        <button type="button" disabled={busy} onClick={cancel}>Cancel invite<span className="visually-hidden"> for {email}</span></button>
        {error === undefined ? null : <p role="alert" className="inline-error">{error}</p>}
      </td>
    </tr>
  )
}
