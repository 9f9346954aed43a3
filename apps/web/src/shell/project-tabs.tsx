import { ALL_FLAGS, hrefOf } from "../router/routes.ts"
import { Tabs } from "../ui/tabs.tsx"

/** A project's pages, as an organization's are: its feature flags, their activity, and its details (the token SDKs need). */
export const ProjectTabs = ({ projectId, current }: { readonly projectId: string; readonly current: "flags" | "flagActivity" | "project" }) => (
  <Tabs
    label="Project"
    tabs={[
      { href: hrefOf({ page: "flags", projectId, list: ALL_FLAGS }), words: "Feature flags", current: current === "flags" },
      { href: hrefOf({ page: "flagActivity", projectId, pageNumber: 1 }), words: "Flag activity", current: current === "flagActivity" },
      { href: hrefOf({ page: "project", projectId }), words: "Details", current: current === "project" }
    ]}
  />
)
