import { type FormEvent, useState } from "react"
import { asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { ConfirmButton } from "../ui/confirm-button.tsx"
import { SelectField } from "../ui/field.tsx"
import { levelOptions, levelWords } from "./levels.ts"
import { MEMBER_PATH, MEMBERS_PATH, organizationPrefix } from "./paths.ts"

type Member = Success<"GET", typeof MEMBERS_PATH>["results"][number]

const nameOf = (member: Member) => `${member.user.first_name} ${member.user.last_name}`.trim()

/**
 * One member: name, e-mail, level and when they joined; for an admin, their level to change and a way to
 * remove them. The controls show where the caller's level could allow them; the API decides, and its
 * refusal is shown beside the level.
 */
export const MemberRow = ({ organizationId, member, mine, callerLevel, onDone }: {
  readonly organizationId: string
  readonly member: Member
  /** The caller's own membership (they leave rather than remove themself). */
  readonly mine: boolean
  readonly callerLevel: number | null
  /** Says what a write did, on the page (a removed member's row is gone with its words). */
  readonly onDone: (words: string) => void
}) => {
  const [level, setLevel] = useState(String(member.level))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ readonly of: "level" | "remove"; readonly detail: string } | undefined>(undefined)
  const email = member.user.email
  const params = { organization_id: organizationId, user__uuid: member.user.uuid }
  const editable = !mine && (callerLevel === null || (callerLevel >= 8 && member.level <= callerLevel))

  const act = (of: "level" | "remove", write: () => Promise<unknown>, words: string) => {
    setBusy(true)
    setError(undefined)
    onDone("")
    write().then(
      () => {
        setBusy(false)
        onDone(words)
        invalidate(organizationPrefix(organizationId, "members"))
      },
      (cause: unknown) => {
        setBusy(false)
        setError({ of, detail: asApiError(cause).detail })
      }
    )
  }
  const changeLevel = (event: FormEvent) => {
    event.preventDefault()
    const payload = { level: Number(level) as 1 | 8 | 15 }
    act("level", () => request("PATCH", MEMBER_PATH, { params, payload }), `${email} is now ${levelWords(payload.level)}.`)
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
                error={error?.of === "level" ? error.detail : undefined}
              />
              <button type="submit" disabled={busy || level === String(member.level)}>
                Change level<span className="visually-hidden"> of {email}</span>
              </button>
            </form>
          )
          : levelWords(member.level)}
      </td>
      <td><time dateTime={member.joined_at}>{new Date(member.joined_at).toLocaleDateString()}</time></td>
      <td>
        {editable
          ? (
            <ConfirmButton
              question={`Remove ${email} from the organization?`}
              confirm="Remove"
              disabled={busy}
              onConfirm={() => act("remove", () => request("DELETE", MEMBER_PATH, { params }), `${email} is removed.`)}
            >
              Remove<span className="visually-hidden"> {email}</span>
            </ConfirmButton>
          )
          : null}
        {error?.of === "remove" ? <p role="alert" className="inline-error">{error.detail}</p> : null}
      </td>
    </tr>
  )
}
