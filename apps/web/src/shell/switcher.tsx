import { useId } from "react"
import { useApi } from "../api/use-api.ts"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { useDisclosure } from "../ui/disclosure.ts"
import { type Me, organizationName } from "./me.ts"

/** How many of an organization's projects the switcher lists; the organization's page lists them all. */
const LISTED_PROJECTS = 50

/**
 * The organization and project in view, and links to the others: a disclosure (a button that opens a
 * panel of links), so each choice is a link that can be opened in a new tab or shared, and the keyboard
 * needs nothing beyond Tab, Enter and Escape.
 */
export const Switcher = ({ me, organizationId, projectId }: {
  readonly me: Me
  readonly organizationId: string | undefined
  readonly projectId: string | undefined
}) => {
  const { open, toggle, button, container, onKeyDown } = useDisclosure()
  const panelId = useId()

  const projects = useApi(
    "/api/organizations/:organization_id/projects/",
    organizationId === undefined ? null : { params: { organization_id: organizationId }, query: { limit: String(LISTED_PROJECTS) } }
  )
  const projectName = projects.status === "ready"
    ? projects.data.results.find((project) => String(project.id) === projectId)?.name
    : undefined
  const current = [
    organizationId === undefined ? "No organization" : organizationName(me, organizationId),
    ...(projectName === undefined ? [] : [projectName])
  ].join(" / ")

  return (
    <div className="switcher" ref={container} onKeyDown={onKeyDown}>
      <button type="button" ref={button} aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        <span className="visually-hidden">Switch organization or project; now:</span> {current}
      </button>
      <div id={panelId} className="switcher-panel" hidden={!open}>
        <h2>Organizations</h2>
        <ul className="link-list">
          {me.organizations.map((organization) => (
            <li key={organization.id}>
              <Link
                href={hrefOf({ page: "organization", organizationId: organization.id, pageNumber: 1 })}
                aria-current={organization.id === organizationId ? "true" : undefined}
              >
                {organization.name}
              </Link>
            </li>
          ))}
        </ul>
        {organizationId === undefined ? null : (
          <>
            <h2>Projects</h2>
            {projects.status === "ready"
              ? (
                <ul className="link-list">
                  {projects.data.results.map((project) => (
                    <li key={project.id}>
                      <Link
                        href={hrefOf({ page: "project", projectId: String(project.id) })}
                        aria-current={String(project.id) === projectId ? "true" : undefined}
                      >
                        {project.name}
                      </Link>
                    </li>
                  ))}
                  {projects.data.count > projects.data.results.length
                    ? (
                      <li>
                        <Link href={hrefOf({ page: "organization", organizationId, pageNumber: 1 })}>
                          All {projects.data.count} projects
                        </Link>
                      </li>
                    )
                    : null}
                </ul>
              )
              : projects.status === "failed"
              ? <p>{projects.error.detail}</p>
              : <p role="status">Loading…</p>}
          </>
        )}
      </div>
    </div>
  )
}
