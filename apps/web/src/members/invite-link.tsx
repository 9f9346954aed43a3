import { hrefOf } from "../router/routes.ts"
import { CopyButton } from "../ui/copy-button.tsx"

/** Where an invite is accepted: the page its e-mail links to, on this site. */
export const inviteLink = (inviteId: string) => `${window.location.origin}${hrefOf({ page: "signup", inviteId })}`

/** An invite's link to hand over by other means (no e-mail may be sent), with a button to copy it. */
export const InviteLink = ({ inviteId, email }: { readonly inviteId: string; readonly email: string }) => (
  <span className="invite-link">
    <code>{inviteLink(inviteId)}</code> <CopyButton text={inviteLink(inviteId)} what={`invite link for ${email}`} />
  </span>
)
