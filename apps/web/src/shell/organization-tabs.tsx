import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"

const TABS = [
  ["organization", "Projects"],
  ["members", "Members"],
  ["invites", "Invites"],
  ["domains", "Domains"],
  ["batchExports", "Batch exports"]
] as const

/** An organization's pages: its projects, members, invites, domains and batch exports. */
export const OrganizationTabs = ({ organizationId, current }: {
  readonly organizationId: string
  readonly current: (typeof TABS)[number][0]
}) => (
  <nav aria-label="Organization" className="tabs">
    {TABS.map(([page, words]) => (
      <Link key={page} href={hrefOf({ page, organizationId, pageNumber: 1 })} aria-current={page === current ? "page" : undefined}>
        {words}
      </Link>
    ))}
  </nav>
)
