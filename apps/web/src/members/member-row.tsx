import { type FormEvent, useState } from "react"
import { asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { SelectField } from "../ui/field.tsx"
import { Level } from "@hedgerow/core/levels"
import { levelOptions, levelWords, mayManageMemberAt } from "./levels.ts"
import { MEMBER_PATH, MEMBERS_PATH, organizationPrefix } from "./paths.ts"
import { personName } from "./person.ts"
import { When } from "../ui/when.tsx"

type Member = Success<"GET", typeof MEMBERS_PATH>["results"][number]

/**
 * What a change of level takes or gives that is worth asking about first, in words: making an owner, who
 * may then do everything, and taking an administrator's or owner's powers away. Other changes need no question.
 */
const riskOf = (email: string, from: number, to: number): { readonly title: string; readonly words: string } | undefined => {
  if (to === Level.owner && from !== Level.owner) {
    return {
      title: `Make ${email} an owner?`,
      words: "Owners may do everything: change anyone's level, make other owners, and delete the organization with all its projects and flags."
    }
  }
  if (from === Level.owner && to < from) {
    return {
      title: `Make ${email} ${to === Level.admin ? "an admin" : "a member"}?`,
      words: to === Level.admin
        ? "They will no longer be an owner: they can no longer make owners or delete the organization."
        : "They will no longer be an owner, nor manage members, invites, roles, domains or the organization's settings."
    }
  }
  if (from === Level.admin && to < from) {
    return {
      title: `Make ${email} a member?`,
      words: "They will no longer manage members, invites, roles, domains or the organization's settings, and will edit feature flags only as their roles allow."
    }
  }
  return undefined
}

/**
 * One member: name, e-mail, level and when they joined; for an admin, their level to change (asked first when
 * it makes an owner or takes an administrator's powers away) and a way to remove them (asked first). The
 * controls show where the caller's level could allow them; the API decides, and its refusal is shown beside
 * the level, or in the question.
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
  const editable = !mine && mayManageMemberAt(callerLevel, member.level)
  const risk = riskOf(email, member.level, Number(level))
  const changed = (to: number) => {
    onDone(`${email} is now ${levelWords(to)}.`)
    invalidate(organizationPrefix(organizationId, "members"))
  }

  const changeLevel = (event: FormEvent) => {
    event.preventDefault()
    // A risky change goes through its question only.
    if (risk !== undefined) return
    const payload = { level: Number(level) as 1 | 8 | 15 }
    setBusy(true)
    setError(undefined)
    onDone("")
    request("PATCH", MEMBER_PATH, { params, payload }).then(
      () => {
        setBusy(false)
        changed(payload.level)
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause).detail)
      }
    )
  }

  return (
    <tr>
      <td data-label="Name">{personName(member.user) || "—"}{mine ? " (you)" : ""}</td>
      <td data-label="Email">{email}</td>
      <td data-label="Level">
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
              {risk === undefined
                ? (
                  <button type="submit" disabled={busy || level === String(member.level)}>
                    Change level<span className="visually-hidden"> of {email}</span>
                  </button>
                )
                : (
                  <ConfirmDialog
                    label={<>Change level<span className="visually-hidden"> of {email}</span></>}
                    title={risk.title}
                    confirmLabel={`Make ${levelWords(Number(level)).toLowerCase()}`}
                    dismissLabel={`Keep ${levelWords(member.level).toLowerCase()}`}
                    disabled={busy}
                    action={() => request("PATCH", MEMBER_PATH, { params, payload: { level: Number(level) as 1 | 8 | 15 } })}
                    onDone={() => changed(Number(level))}
                  >
                    <p>{risk.words}</p>
                  </ConfirmDialog>
                )}
            </form>
          )
          : levelWords(member.level)}
      </td>
      <td data-label="Joined"><When at={member.joined_at} dateOnly /></td>
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
