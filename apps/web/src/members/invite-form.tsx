import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { SelectField, TextField } from "../ui/field.tsx"
import { levelOptions } from "./levels.ts"
import { InviteLink } from "./invite-link.tsx"
import { INVITES_PATH, organizationPrefix } from "./paths.ts"

type Invite = Success<"POST", typeof INVITES_PATH>

/** The fields of the form, by the names the API's `attr` gives them. */
const FIELDS = ["target_email", "first_name", "level"] as const

/** One invite: an address, a first name if known, a level; once made, its link to hand over. */
export const InviteForm = ({ organizationId, callerLevel }: { readonly organizationId: string; readonly callerLevel: number | null }) => {
  const [email, setEmail] = useState("")
  const [firstName, setFirstName] = useState("")
  const [level, setLevel] = useState("1")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [made, setMade] = useState<Invite | undefined>(undefined)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    setMade(undefined)
    const payload = { target_email: email, level: Number(level) as 1 | 8 | 15, ...(firstName === "" ? {} : { first_name: firstName }) }
    request("POST", INVITES_PATH, { params: { organization_id: organizationId }, payload }).then(
      (invite) => {
        setBusy(false)
        setMade(invite)
        setEmail("")
        setFirstName("")
        invalidate(organizationPrefix(organizationId, "invites"))
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause))
      }
    )
  }

  const errorFor = (field: (typeof FIELDS)[number]) => (error?.attr === field ? error.detail : undefined)
  const formError = error !== undefined && !FIELDS.some((field) => field === error.attr) ? error.detail : undefined
  return (
    <section aria-labelledby="invite-heading" className="form-section">
      <h2 id="invite-heading">Invite a teammate</h2>
      <form className="invite-form" onSubmit={submit} noValidate aria-busy={busy}>
        <TextField label="Email" type="email" name="target_email" autoComplete="off" value={email} onValue={setEmail} error={errorFor("target_email")} />
        <TextField label="First name (optional)" name="first_name" autoComplete="off" value={firstName} onValue={setFirstName} error={errorFor("first_name")} />
        <SelectField label="Level" name="level" options={levelOptions(callerLevel)} value={level} onValue={setLevel} error={errorFor("level")} />
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <div><button type="submit" className="primary" disabled={busy}>Invite</button></div>
      </form>
      <p role="status" className="notice">
        {made === undefined ? "" : `${made.target_email} is invited${made.emailing_attempt_made ? " by e-mail" : ""}.`}
      </p>
      {made === undefined ? null : <p>Their invite link: <InviteLink inviteId={made.id} email={made.target_email} /></p>}
    </section>
  )
}
