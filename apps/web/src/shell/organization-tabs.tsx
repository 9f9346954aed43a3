import { hrefOf } from "../router/routes.ts"
import { Tabs } from "../ui/tabs.tsx"

const TABS = [
  ["organization", "Projects"],
  ["members", "Members"],
  ["invites", "Invites"],
  ["roles", "Roles"],
  ["domains", "Domains"],
  ["batchExports", "Batch exports"]
] as const

/** An organization's pages: its projects, members, invites, roles, domains and batch exports. */
export const OrganizationTabs = ({ organizationId, current }: {
  readonly organizationId: string
  readonly current: (typeof TABS)[number][0]
}) => (
  <Tabs
    label="Organization"
    tabs={TABS.map(([page, words]) => ({ href: hrefOf({ page, organizationId, pageNumber: 1 }), words, current: page === current }))}
  />
)
