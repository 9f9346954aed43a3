import { useRef, useState } from "react"
import { invalidate } from "../api/resources.ts"
import { useApi } from "../api/use-api.ts"
import { BulkInviteForm } from "../members/bulk-invite-form.tsx"
import { InviteForm } from "../members/invite-form.tsx"
import { InviteRow } from "../members/invite-row.tsx"
import { myLevel } from "../members/levels.ts"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { INVITES_PATH, organizationPrefix } from "../members/paths.ts"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"

const PAGE_SIZE = 20

/** An organization's invites, a page at a time (the page is in the URL), and new ones, one or many. */
export default function InvitesPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(`Invites · ${name}`)
  const [notice, setNotice] = useState("")
  const heading = useRef<HTMLHeadingElement>(null)
  const invites = useApi(INVITES_PATH, {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  })
  const callerLevel = myLevel(me, organizationId)
  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="invites" />
      <div className="invite-forms">
        <InviteForm organizationId={organizationId} callerLevel={callerLevel} />
        <BulkInviteForm organizationId={organizationId} callerLevel={callerLevel} />
      </div>
      <h2 ref={heading} tabIndex={-1}>Invites</h2>
      <p className="hint">An invite is valid for three days. Its link can be handed over when no e-mail is sent.</p>
      <p role="status" className="notice">{notice}</p>
      <Resourceful resource={invites} onRetry={() => invalidate(organizationPrefix(organizationId, "invites"))}>
        {(page) =>
          page.count === 0
            ? <Empty title="No invites are waiting." />
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "invites", organizationId, pageNumber: 1 })} />
            )
            : (
              <>
                <table className="invites stack">
                  <caption className="visually-hidden">Invites, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">First name</th>
                      <th scope="col">Level</th>
                      <th scope="col">Created</th>
                      <th scope="col">Status</th>
                      <th scope="col">Link</th>
                      <th scope="col"><span className="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((invite) => (
                      <InviteRow
                        key={invite.id}
                        organizationId={organizationId}
                        invite={invite}
                        onCancelled={(words) => {
                          // The row and its buttons go: the keyboard goes on from the list's heading.
                          setNotice(words)
                          heading.current?.focus()
                        }}
                      />
                    ))}
                  </tbody>
                </table>
                <Pagination
                  label="Invites pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "invites", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
