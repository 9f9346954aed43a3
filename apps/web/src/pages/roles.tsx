import { useRef, useState } from "react"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { mayAdministerAt, myLevel } from "../members/levels.ts"
import { MEMBERS_PATH } from "../members/paths.ts"
import { NewRole } from "../roles/new-role.tsx"
import { RoleCard } from "../roles/role-card.tsx"
import { ROLES_PATH, rolesPrefix } from "../roles/role.ts"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"

const PAGE_SIZE = 20
/** How many of the organization's members are offered as suggestions when adding one to a role. */
const SUGGESTED = 100

/**
 * An organization's roles, a page at a time: what each lets its members do with feature flags, and who is
 * in it. Administrators and owners make, change and delete roles and choose their members; anyone else
 * reads them, with no control the API would refuse.
 */
export default function RolesPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(`Roles · ${name}`)
  const manages = mayAdministerAt(myLevel(me, organizationId))
  const [notice, setNotice] = useState("")
  const heading = useRef<HTMLHeadingElement>(null)
  const options = {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  }
  const roles = useApi(ROLES_PATH, options)
  const members = useApi(MEMBERS_PATH, manages ? { params: { organization_id: organizationId }, query: { limit: String(SUGGESTED) } } : null)
  const candidates = members.status === "ready" ? members.data.results.map((member) => ({ email: member.user.email, uuid: member.user.uuid })) : []
  const refresh = () => reread(rolesPrefix(organizationId), ROLES_PATH, options)
  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="roles" />
      <h2 ref={heading} tabIndex={-1}>Roles</h2>
      <p>
        A role groups members. It says whether they can edit every feature flag or only view them; a flag can grant a
        role access, so that its members edit that flag even when they can only view the rest. Administrators and
        owners can always edit every flag.
      </p>
      {manages ? null : <p className="hint">Only administrators and owners change roles and their members.</p>}
      <p role="status" className="notice">{notice}</p>
      <Resourceful resource={roles} onRetry={() => invalidate(urlOf(ROLES_PATH, options))}>
        {(page) =>
          page.count === 0
            ? <Empty title="This organization has no roles yet." />
            : page.results.length === 0
            ? <PastTheEnd firstPage={hrefOf({ page: "roles", organizationId, pageNumber: 1 })} />
            : (
              <>
                {page.results.map((role) => (
                  <RoleCard
                    key={role.id}
                    organizationId={organizationId}
                    role={role}
                    manages={manages}
                    candidates={candidates}
                    refresh={refresh}
                    onDeleted={(deleted) => {
                      // The card and its buttons go: the keyboard goes on from the list's heading.
                      setNotice(`The role ${deleted} is deleted.`)
                      heading.current?.focus()
                    }}
                  />
                ))}
                <Pagination
                  label="Roles pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "roles", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
      {manages ? <NewRole organizationId={organizationId} refresh={refresh} onMade={(made) => setNotice(`The role ${made} is made.`)} /> : null}
    </>
  )
}
