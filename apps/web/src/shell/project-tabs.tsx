import { ALL_FLAGS, hrefOf } from "../router/routes.ts"
import { Tabs } from "../ui/tabs.tsx"

/**
 * A project's pages, as an organization's are: its feature flags and their activity, its details (the
 * token SDKs need), and the cohorts, group types and webhooks its flags work with.
 */
export const ProjectTabs = ({ projectId, current }: {
  readonly projectId: string
  readonly current: "flags" | "flagActivity" | "project" | "cohorts" | "groupTypes" | "webhooks"
}) => (
  <Tabs
    label="Project"
    tabs={[
      { href: hrefOf({ page: "flags", projectId, list: ALL_FLAGS }), words: "Feature flags", current: current === "flags" },
      { href: hrefOf({ page: "flagActivity", projectId, pageNumber: 1 }), words: "Flag activity", current: current === "flagActivity" },
      { href: hrefOf({ page: "project", projectId }), words: "Details", current: current === "project" },
      { href: hrefOf({ page: "cohorts", projectId, search: "", pageNumber: 1 }), words: "Cohorts", current: current === "cohorts" },
      { href: hrefOf({ page: "groupTypes", projectId }), words: "Group types", current: current === "groupTypes" },
      { href: hrefOf({ page: "webhooks", projectId, pageNumber: 1 }), words: "Webhooks", current: current === "webhooks" }
    ]}
  />
)
