import { useApi } from "../api/use-api.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { ProjectTabs } from "./project-tabs.tsx"

type Section = Parameters<typeof ProjectTabs>[0]["current"]

/**
 * The head of a project's section page: the project's name as the page's h1 (its id until read, the
 * shell's switcher asking the same once), the project's tabs, and the tab's title, "Cohorts · Web app".
 */
export const ProjectHead = ({ projectId, current, title }: {
  readonly projectId: string
  readonly current: Section
  readonly title: string
}) => {
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const name = project.status === "ready" ? project.data.name : undefined
  usePageTitle(name === undefined ? title : `${title} · ${name}`)
  return (
    <>
      <h1>{name ?? `Project ${projectId}`}</h1>
      <ProjectTabs projectId={projectId} current={current} />
    </>
  )
}
