import { type FormEvent, useState } from "react"
import { asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { SelectField } from "../ui/field.tsx"
import { levelOptions, levelWords } from "./levels.ts"
import { MEMBER_PATH, MEMBERS_PATH, organizationPrefix } from "./paths.ts"
import { When } from "../ui/when.tsx"

type Member = Success<"GET", typeof MEMBERS_PATH>["results"][number]

const nameOf = (member: Member) => `${member.user.first_name} ${member.user.last_name}`.trim()

/**
 * One member: name, e-mail, level and when they joined; for an admin, their level to change and a way to
 * remove them (asked first). The controls show where the caller's level could allow them; the API decides,
 * and its refusal is shown beside the level, or in the removal's question.
 */
export const MemberRow = ({ organizationId, member, mine, callerLevel, onDone, onRemoved }: {
  readonly organizationId: string
  readonly member: Member
  /** The caller's own membership (they leave rather than remove themself). */
  readonly mine: boolean
  readonly callerLevel: number | null
  /** Says what a change of level did, on the page. */
  readonly onDone: (words: string) => void
  /** Says so once the member is removed, on the page: the row goes with its words and its buttons. */
  readonly onRemoved: (words: string) => void
}) => {
  const [level, setLevel] = useState(String(member.level))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const email = member.user.email
  const params = { organization_id: organizationId, user__uuid: member.user.uuid }
  const editable = !mine && (callerLevel === null || (callerLevel >= 8 && member.level <= callerLevel))

  const changeLevel = (event: FormEvent) => {
    event.preventDefault()
    const payload = { level: Number(level) as 1 | 8 | 15 }
    setBusy(true)
    setError(undefined)
    onDone("")
    request("PATCH", MEMBER_PATH, { params, payload }).then(
      () => {
        setBusy(false)
        onDone(`${email} is now ${levelWords(payload.level)}.`)
        invalidate(organizationPrefix(organizationId, "members"))
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause).detail)
      }
    )
  }

  return (
    <tr>
      <td>{nameOf(member) || "—"}{mine ? " (you)" : ""}</td>
      <td>{email}</td>
      <td>
        {editable
          ? (
            <form className="row-form" onSubmit={changeLevel}>
              <SelectField
                label={`Level of ${email}`}
                options={levelOptions(callerLevel)}
                value={level}
                onValue={setLevel}
                error={error}
              />
              <button type="submit" disabled={busy || level === String(member.level)}>
                Change level<span className="visually-hidden"> of {email}</span>
              </button>
            </form>
          )
          : levelWords(member.level)}
      </td>
      <td><When at={member.joined_at} dateOnly /></td>
      <td>
        {editable
          ? (
            <ConfirmDialog
              label={<>Remove<span className="visually-hidden"> {email}</span></>}
              title={`Remove ${email} from the organization?`}
              confirmLabel="Remove member"
              disabled={busy}
              action={() => request("DELETE", MEMBER_PATH, { params })}
              onDone={() => {
                onRemoved(`${email} is removed.`)
                invalidate(organizationPrefix(organizationId, "members"))
              }}
            >
              <p>They lose access to its projects at once. To come back, they need a new invite.</p>
            </ConfirmDialog>
          )
          : null}
      </td>
    </tr>
  )
}
