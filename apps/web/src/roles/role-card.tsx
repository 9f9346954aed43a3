import { useId, useRef } from "react"
import { request } from "../api/client.ts"
import { personName } from "../members/person.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { TableScroll } from "../ui/table-scroll.tsx"
import { When } from "../ui/when.tsx"
import { useCardWrites } from "../ui/writes.ts"
import { AddRoleMember, type Candidate } from "./add-role-member.tsx"
import { ACCESS_WORDS, countWords, type Role, type RoleChanges, ROLE_MEMBERSHIP_PATH, ROLE_PATH } from "./role.ts"
import { RoleSettings } from "./role-settings.tsx"

/** Who loses what when the role goes, in words: its members by address, and where their flag rights then come from. */
const DeletionWords = ({ role }: { readonly role: Role }) => (
  <>
    <p>
      {role.members.length === 0
        ? "No one is in this role."
        : `${countWords(role.members.length)} leave it: ${role.members.map((member) => member.user.email).join(", ")}.`}{" "}
      Every flag's grant to it goes too.
    </p>
    <p>
      Their rights over feature flags then come from their other roles: someone left with none edits every flag (the
      organization's default); someone whose other roles can only view edits only the flags granted to those roles.
      Administrators and owners keep every right. This cannot be undone.
    </p>
  </>
)

/**
 * One role: what it gives, its members, and for an administrator (`manages`) the controls to change it:
 * add and remove members, rename it or change its flag access, delete it (asked first). After every write
 * the page's list is read again (`refresh`), so nothing typed elsewhere is lost.
 */
export const RoleCard = ({ organizationId, role, manages, candidates, refresh, onDeleted }: {
  readonly organizationId: string
  readonly role: Role
  readonly manages: boolean
  readonly candidates: ReadonlyArray<Candidate>
  readonly refresh: () => Promise<void>
  readonly onDeleted: (name: string) => void
}) => {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const { busy, notice, setNotice, cardError, settingsError, write, fail } = useCardWrites(refresh)
  const params = { organization_id: organizationId, id: role.id }

  const save = (changes: RoleChanges) =>
    write(async () => {
      if (Object.keys(changes).length === 0) return "Nothing has changed."
      const saved = await request("PATCH", ROLE_PATH, { params, payload: changes })
      return `${saved.name} is saved.`
    }, "settings")

  // The row and its button go: the keyboard goes on from the role's heading.
  const remove = (membershipId: string, email: string) =>
    write(async () => {
      await request("DELETE", ROLE_MEMBERSHIP_PATH, { params: { organization_id: organizationId, role_id: role.id, id: membershipId } })
      heading.current?.focus()
      return `${email} is no longer in ${role.name}.`
    }, "card")

  return (
    <article className="card role-card" aria-labelledby={headingId}>
      <div className="page-head">
        <h3 id={headingId} ref={heading} tabIndex={-1}>{role.name}</h3>
        <span className="badge">{countWords(role.members.length)}</span>
      </div>
      <p>{ACCESS_WORDS[role.feature_flags_access_level]}.</p>
      <p role="status" className="notice">{notice}</p>
      {cardError === undefined ? null : <p role="alert" className="form-error">{cardError.detail}</p>}
      {role.members.length === 0
        ? <p>No one is in this role yet.</p>
        : (
          <TableScroll label={`Members of ${role.name}`}>
            <table className="role-members">
              <caption className="visually-hidden">Members of {role.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">In the role since</th>
                  {manages ? <th scope="col"><span className="visually-hidden">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody>
                {role.members.map((member) => (
                  <tr key={member.id}>
                    <td>{personName(member.user) || "—"}</td>
                    <td>{member.user.email}</td>
                    <td><When at={member.joined_at} dateOnly /></td>
                    {manages
                      ? (
                        <td>
                          <button type="button" disabled={busy} onClick={() => remove(member.id, member.user.email)}>
                            Remove<span className="visually-hidden"> {member.user.email} from {role.name}</span>
                          </button>
                        </td>
                      )
                      : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      {manages
        ? (
          <>
            <AddRoleMember
              organizationId={organizationId}
              role={role}
              candidates={candidates}
              onAdded={async (email) => {
                await refresh()
                setNotice(`${email} is now in ${role.name}.`)
              }}
            />
            <RoleSettings key={`${role.name}/${role.feature_flags_access_level}`} role={role} busy={busy} error={settingsError} onSave={save} />
            <ConfirmDialog
              label={<>Delete<span className="visually-hidden"> {role.name}</span></>}
              title={`Delete the role ${role.name}?`}
              confirmLabel="Delete role"
              disabled={busy}
              action={() => request("DELETE", ROLE_PATH, { params })}
              onDone={() => refresh().then(() => onDeleted(role.name), fail)}
            >
              <DeletionWords role={role} />
            </ConfirmDialog>
          </>
        )
        : null}
    </article>
  )
}
