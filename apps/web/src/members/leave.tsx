import { request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { navigate } from "../router/navigation.tsx"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { MEMBER_PATH } from "./paths.ts"

/** Leaving the organization (`members/@me/`), asked first; the API refuses its last owner, in its words. */
export const LeaveOrganization = ({ organizationId, name }: { readonly organizationId: string; readonly name: string }) => (
  <section aria-labelledby="leave-heading" className="form-section leave">
    <h2 id="leave-heading">Leave {name}</h2>
    <p>You will no longer see its projects. To come back, you need a new invite.</p>
    <div>
      <ConfirmDialog
        label="Leave organization"
        title={`Leave ${name}?`}
        confirmLabel="Leave organization"
        action={() => request("DELETE", MEMBER_PATH, { params: { organization_id: organizationId, user__uuid: "@me" } })}
        onDone={() => {
          // Home first, then everything read again: the user's organizations have changed.
          navigate("/", { replace: true })
          invalidate()
        }}
      >
        <p>You will no longer see its projects. To come back, you need a new invite.</p>
      </ConfirmDialog>
    </div>
  </section>
)
