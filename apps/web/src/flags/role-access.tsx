import { type FormEvent, useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { SelectField } from "../ui/field.tsx"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const GRANTS_PATH = "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/"
const GRANT_PATH = "/api/projects/:project_id/feature_flags/:feature_flag_id/role_access/:id/"
const ROLES_PATH = "/api/organizations/:organization_id/roles/"
const PAGE_SIZE = 20
/** How many of the organization's roles the select offers. */
const LISTED_ROLES = 100

type Grant = Success<"GET", typeof GRANTS_PATH>["results"][number]
type Role = Grant["role"]

const LEVEL_WORDS: Record<Role["feature_flags_access_level"], string> = { 21: "Can only view", 37: "Can always edit" }

/**
 * The roles granted access to a flag, a page at a time, with a role of the organization to add and each
 * grant to take away. Who may change them is the API's to say: a refusal is shown in its words.
 */
export const RoleAccessPanel = ({ projectId, flagId, organizationId, pageNumber }: {
  readonly projectId: string
  readonly flagId: string
  readonly organizationId: string
  readonly pageNumber: number
}) => {
  const params = { project_id: projectId, feature_flag_id: flagId }
  const options = { params, query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) } }
  const grants = useApi(GRANTS_PATH, options)
  const roles = useApi(ROLES_PATH, { params: { organization_id: organizationId }, query: { limit: String(LISTED_ROLES) } })
  const [roleId, setRoleId] = useState("")
  const [choiceError, setChoiceError] = useState<string | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [notice, setNotice] = useState("")
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)

  // The buttons stay enabled (a disabled one would drop the keyboard's focus); one write at a time.
  const change = (write: () => Promise<unknown>, done: string, after?: () => void) => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    setNotice("")
    write().then(
      () => {
        // Every page of this flag's grants, and no other read: the flag itself has not changed.
        invalidate(urlOf(GRANTS_PATH, { params }))
        setNotice(done)
        after?.()
      },
      (cause: unknown) => setError(asApiError(cause))
    ).finally(() => setBusy(false))
  }

  const add = (event: FormEvent) => {
    event.preventDefault()
    const role = roles.status === "ready" ? roles.data.results.find((role) => role.id === roleId) : undefined
    if (role === undefined) {
      setChoiceError("Choose a role to add.")
      return
    }
    setChoiceError(undefined)
    change(() => request("POST", GRANTS_PATH, { params, payload: { role_id: roleId } }), `${role.name} now has access.`, () => setRoleId(""))
  }
  // The removed row's button is gone: the keyboard goes on from the section's heading.
  const remove = (grant: Grant) =>
    change(
      () => request("DELETE", GRANT_PATH, { params: { ...params, id: String(grant.id) } }),
      `${grant.role.name} no longer has access.`,
      () => heading.current?.focus()
    )

  const shown = grants.status === "ready" ? grants.data.results : []
  const offered: Array<readonly [string, string]> = [["", "Choose a role"]]
  if (roles.status === "ready") {
    for (const role of roles.data.results) {
      if (!shown.some((grant) => grant.role.id === role.id)) offered.push([role.id, `${role.name} (${LEVEL_WORDS[role.feature_flags_access_level].toLowerCase()})`])
    }
  }

  return (
    <section aria-labelledby="access-title" className="role-access">
      <h2 id="access-title" ref={heading} tabIndex={-1}>Role access</h2>
      <p className="hint">
        Members of a role listed here may edit this flag even when their roles can only view feature flags;
        administrators, owners, the flag's creator and members whose roles can always edit may edit it anyway.
      </p>
      <p role="status" className="notice">{notice}</p>
      <Resourceful resource={grants} onRetry={() => invalidate(urlOf(GRANTS_PATH, options))}>
        {(page) =>
          page.count === 0
            ? <Empty title="No role has access to this flag yet." />
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "flag", projectId, flagId, tab: "access", pageNumber: 1 })} />
            )
            : (
              <>
                <table className="grants">
                  <caption className="visually-hidden">Roles with access to this flag, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Role</th>
                      <th scope="col">Feature flags</th>
                      <th scope="col">Members</th>
                      <th scope="col">Added</th>
                      <th scope="col"><span className="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((grant) => (
                      <tr key={grant.id}>
                        <th scope="row">{grant.role.name}</th>
                        <td>{LEVEL_WORDS[grant.role.feature_flags_access_level]}</td>
                        <td>{grant.role.members.length}</td>
                        <td><When at={grant.added_at} dateOnly /></td>
                        <td className="row-actions">
                          <button type="button" onClick={() => remove(grant)}>
                            Remove<span className="visually-hidden"> {grant.role.name}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pagination
                  label="Role access pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "flag", projectId, flagId, tab: "access", pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
      <form onSubmit={add} noValidate aria-busy={busy} aria-label="Add a role" className="add-role">
        <SelectField
          label="Role"
          options={offered}
          value={roleId}
          onValue={setRoleId}
          error={choiceError ?? (error?.attr === "role_id" ? error.detail : undefined)}
          hint={roles.status === "ready" && roles.data.count === 0
            ? "This organization has no roles yet: an administrator makes them."
            : roles.status === "failed"
            ? `The organization's roles could not be read: ${roles.error.detail}`
            : undefined}
        />
        <button type="submit" className="primary">Add role</button>
      </form>
      {error === undefined || error.attr === "role_id" ? null : <p role="alert" className="form-error">{error.detail}</p>}
    </section>
  )
}
