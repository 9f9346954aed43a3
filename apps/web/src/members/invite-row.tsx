import { request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { InviteLink } from "./invite-link.tsx"
import { levelWords } from "./levels.ts"
import { INVITE_PATH, INVITES_PATH, organizationPrefix } from "./paths.ts"
import { When } from "../ui/when.tsx"

type Invite = Success<"GET", typeof INVITES_PATH>["results"][number]

/** One invite: to whom, at which level, since when, whether it has expired, its link, and its withdrawal (asked first). */
export const InviteRow = ({ organizationId, invite, onCancelled }: {
  readonly organizationId: string
  readonly invite: Invite
  /** Says so once the invite is withdrawn, on the page: the row goes with its words and its buttons. */
  readonly onCancelled: (words: string) => void
}) => {
  const email = invite.target_email
  return (
    <tr>
      <td data-label="Email">{email}</td>
      <td data-label="First name">{invite.first_name}</td>
      <td data-label="Level">{levelWords(invite.level)}</td>
      <td data-label="Created"><When at={invite.created_at} dateOnly /></td>
      <td data-label="Status">{invite.is_expired ? <span className="badge badge-deleted">Expired</span> : <span className="badge badge-active">Pending</span>}</td>
      <td data-label="Link"><InviteLink inviteId={invite.id} email={email} /></td>
      <td>
        <ConfirmDialog
          label={<>Cancel invite<span className="visually-hidden"> for {email}</span></>}
          title={`Cancel the invite for ${email}?`}
          confirmLabel="Cancel invite"
          dismissLabel="Keep invite"
          action={() => request("DELETE", INVITE_PATH, { params: { organization_id: organizationId, id: invite.id } })}
          onDone={() => {
            onCancelled(`The invite for ${email} is cancelled.`)
            invalidate(organizationPrefix(organizationId, "invites"))
          }}
        >
          <p>Its link stops working at once. To invite them again, make a new invite.</p>
        </ConfirmDialog>
      </td>
    </tr>
  )
}
