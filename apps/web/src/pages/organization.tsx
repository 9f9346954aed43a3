import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { mayAdministerAt, myLevel } from "../members/levels.ts"
import { TwoFactorRule } from "../organization/two-factor-rule.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"

const PAGE_SIZE = 20
const PATH = "/api/organizations/:organization_id/projects/"

/** An organization's projects, a page at a time (the page number is in the URL), and its two-factor rule. */
export default function OrganizationPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(name)
  const options = {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  }
  const projects = useApi(PATH, options)
  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="organization" />
      <h2>Projects</h2>
      <Resourceful resource={projects} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(page) =>
          page.count === 0
            ? <Empty title="This organization has no projects yet." />
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "organization", organizationId, pageNumber: 1 })} />
            )
            : (
              <>
                <ul className="link-list" aria-label="Projects">
                  {page.results.map((project) => (
                    <li key={project.id}>
                      <Link href={hrefOf({ page: "project", projectId: String(project.id) })}>{project.name}</Link>
                    </li>
                  ))}
                </ul>
                <Pagination
                  label="Projects pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "organization", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
      <TwoFactorRule
        organizationId={organizationId}
        manages={mayAdministerAt(myLevel(me, organizationId))}
        myAppIsSet={me.is_2fa_enabled}
        current={me.organization?.id === organizationId}
      />
    </>
  )
}
