import { useRef, useState } from "react"
import { invalidate } from "../api/resources.ts"
import { useApi } from "../api/use-api.ts"
import { myLevel } from "../members/levels.ts"
import { LeaveOrganization } from "../members/leave.tsx"
import { MemberRow } from "../members/member-row.tsx"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { MEMBERS_PATH, organizationPrefix } from "../members/paths.ts"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Resourceful } from "../ui/states.tsx"

const PAGE_SIZE = 20

/** An organization's members, a page at a time (the page is in the URL), and leaving it. */
export default function MembersPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(`Members · ${name}`)
  const [notice, setNotice] = useState("")
  const heading = useRef<HTMLHeadingElement>(null)
  const members = useApi(MEMBERS_PATH, {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  })
  const callerLevel = myLevel(me, organizationId)
  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="members" />
      <h2 ref={heading} tabIndex={-1}>Members</h2>
      <p role="status" className="notice">{notice}</p>
      <Resourceful resource={members} onRetry={() => invalidate(organizationPrefix(organizationId, "members"))}>
        {(page) =>
          page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "members", organizationId, pageNumber: 1 })} />
            )
            : (
              <>
                <table className="members stack">
                  <caption className="visually-hidden">Members, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Level</th>
                      <th scope="col">Joined</th>
                      <th scope="col"><span className="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((member) => (
                      <MemberRow
                        key={member.id}
                        organizationId={organizationId}
                        member={member}
                        mine={member.user.uuid === me.uuid}
                        callerLevel={callerLevel}
                        onDone={setNotice}
                        onRemoved={(words) => {
                          // The row and its buttons go: the keyboard goes on from the list's heading.
                          setNotice(words)
                          heading.current?.focus()
                        }}
                      />
                    ))}
                  </tbody>
                </table>
                <Pagination
                  label="Members pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "members", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
      <LeaveOrganization organizationId={organizationId} name={name} />
    </>
  )
}
