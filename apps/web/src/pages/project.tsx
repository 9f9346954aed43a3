import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { ProjectTabs } from "../shell/project-tabs.tsx"
import { CopyButton } from "../ui/copy-button.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const PATH = "/api/projects/:project_id/"

/** A project's details: what an SDK needs to reach it (its token) and where it belongs. */
export default function ProjectPage({ projectId }: { readonly projectId: string }) {
  const me = useMe()
  const options = { params: { project_id: projectId } }
  const project = useApi(PATH, options)
  usePageTitle(project.status === "ready" ? `Details · ${project.data.name}` : "Project")
  return (
    <Resourceful resource={project} onRetry={() => invalidate(urlOf(PATH, options))}>
      {(project) => (
        <>
          <h1>{project.name}</h1>
          <ProjectTabs projectId={projectId} current="project" />
          <h2>Details</h2>
          <dl className="details">
            <dt>Project ID</dt>
            <dd>{project.id}</dd>
            <dt>Organization</dt>
            <dd><Link href={hrefOf({ page: "organization", organizationId: project.organization, pageNumber: 1 })}>{organizationName(me, project.organization)}</Link></dd>
            <dt>Project API key</dt>
            <dd>
              <code>{project.api_token}</code> <CopyButton text={project.api_token} what="project API key" />
              <p className="hint">Public: SDKs send it to evaluate flags (<code>/flags</code>).</p>
            </dd>
            <dt>Time zone</dt>
            <dd>{project.timezone}</dd>
            <dt>Created</dt>
            <dd><When at={project.created_at} /></dd>
          </dl>
        </>
      )}
    </Resourceful>
  )
}
