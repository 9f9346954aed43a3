import { lazy, type ReactNode, Suspense, useEffect, useRef } from "react"
import { useApi } from "../api/use-api.ts"
import { focusKept, Link, useLocation } from "../router/navigation.tsx"
import type { Route } from "../router/routes.ts"
import { Loading } from "../ui/states.tsx"
import { ToastRegion } from "../ui/toast.tsx"
import { AccountMenu } from "./account-menu.tsx"
import { type Me, MeContext } from "./me.ts"
import { SessionEnded, useSessionEnded, useShellPresence } from "./session-ended.tsx"
import { Switcher } from "./switcher.tsx"

// Each page is its own chunk: the first load carries the shell and the page in view only.
const OrganizationPage = lazy(() => import("../pages/organization.tsx"))
const ProjectPage = lazy(() => import("../pages/project.tsx"))
const NotFoundPage = lazy(() => import("../pages/not-found.tsx"))
const FlagsPage = lazy(() => import("../pages/flags.tsx"))
const DeletedFlagsPage = lazy(() => import("../pages/deleted-flags.tsx"))
const NewFlagPage = lazy(() => import("../pages/new-flag.tsx"))
const FlagPage = lazy(() => import("../pages/flag.tsx"))
const PersonalApiKeysPage = lazy(() => import("../pages/personal-api-keys.tsx"))
const NewPersonalApiKeyPage = lazy(() => import("../pages/new-personal-api-key.tsx"))
const PersonalApiKeyPage = lazy(() => import("../pages/personal-api-key.tsx"))
const TwoFactorPage = lazy(() => import("../pages/two-factor.tsx"))
const MembersPage = lazy(() => import("../pages/members.tsx"))
const InvitesPage = lazy(() => import("../pages/invites.tsx"))
const DomainsPage = lazy(() => import("../pages/domains.tsx"))
const BatchExportsPage = lazy(() => import("../pages/batch-exports.tsx"))
const RolesPage = lazy(() => import("../pages/roles.tsx"))
const CliAuthorizePage = lazy(() => import("../pages/cli-authorize.tsx"))
const FlagActivityPage = lazy(() => import("../pages/flag-activity.tsx"))
const CohortsPage = lazy(() => import("../pages/cohorts.tsx"))
const NewCohortPage = lazy(() => import("../pages/new-cohort.tsx"))
const CohortPage = lazy(() => import("../pages/cohort.tsx"))
const GroupTypesPage = lazy(() => import("../pages/group-types.tsx"))
const WebhooksPage = lazy(() => import("../pages/webhooks.tsx"))
const WebhookPage = lazy(() => import("../pages/webhook.tsx"))

type ShellRoute = Exclude<Route, { page: "login" } | { page: "home" } | { page: "signup" } | { page: "signInLink" }>

const pageOf = (route: ShellRoute): ReactNode => {
  switch (route.page) {
    case "organization":
      return <OrganizationPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "members":
      return <MembersPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "invites":
      return <InvitesPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "domains":
      return <DomainsPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "batchExports":
      return <BatchExportsPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "roles":
      return <RolesPage organizationId={route.organizationId} pageNumber={route.pageNumber} />
    case "project":
      return <ProjectPage projectId={route.projectId} />
    case "flags":
      return <FlagsPage projectId={route.projectId} list={route.list} />
    case "deletedFlags":
      return <DeletedFlagsPage projectId={route.projectId} search={route.search} pageNumber={route.pageNumber} />
    case "newFlag":
      return <NewFlagPage projectId={route.projectId} />
    case "flag":
      return <FlagPage projectId={route.projectId} flagId={route.flagId} tab={route.tab} pageNumber={route.pageNumber} />
    case "flagActivity":
      return <FlagActivityPage projectId={route.projectId} pageNumber={route.pageNumber} />
    case "cohorts":
      return <CohortsPage projectId={route.projectId} search={route.search} pageNumber={route.pageNumber} />
    case "newCohort":
      return <NewCohortPage projectId={route.projectId} />
    case "cohort":
      return <CohortPage projectId={route.projectId} cohortId={route.cohortId} tab={route.tab} pageNumber={route.pageNumber} />
    case "groupTypes":
      return <GroupTypesPage projectId={route.projectId} />
    case "webhooks":
      return <WebhooksPage projectId={route.projectId} pageNumber={route.pageNumber} />
    case "webhook":
      return <WebhookPage projectId={route.projectId} webhookId={route.webhookId} pageNumber={route.pageNumber} />
    case "personalApiKeys":
      return <PersonalApiKeysPage />
    case "newPersonalApiKey":
      return <NewPersonalApiKeyPage />
    case "personalApiKey":
      return <PersonalApiKeyPage keyId={route.keyId} />
    case "twoFactor":
      return <TwoFactorPage required={route.required} />
    case "cliAuthorize":
      return <CliAuthorizePage code={route.code} />
    case "notFound":
      return <NotFoundPage />
  }
}

/** The project a page belongs to, when it belongs to one. */
const projectOf = (route: ShellRoute): string | undefined => "projectId" in route ? route.projectId : undefined

/** The organization a page belongs to: named by its route, or its project's (read through the shared resources). */
const useOrganizationOf = (me: Me, route: ShellRoute): string | undefined => {
  const projectId = projectOf(route)
  const project = useApi("/api/projects/:project_id/", projectId !== undefined ? { params: { project_id: projectId } } : null)
  if ("organizationId" in route) return route.organizationId
  if (projectId !== undefined) return project.status === "ready" ? project.data.organization : undefined
  return me.organization?.id
}

/**
 * Every page but the log-in: a header (switcher, user, log-out) and the page in `main`; the notices
 * pages give (ui/toast.tsx), and what happens once the session has ended.
 */
export const Shell = ({ me, route }: { readonly me: Me; readonly route: ShellRoute }) => {
  const organizationId = useOrganizationOf(me, route)
  const projectId = projectOf(route) ?? (route.page === "notFound" && me.team !== null
    ? String(me.team.id)
    : undefined)
  const main = useRef<HTMLElement>(null)
  const location = useLocation()
  const first = useRef(true)
  const ended = useSessionEnded()
  useShellPresence()
  // After a navigation, focus moves to the new page, as a page load would put it at the top; not when the
  // page stays and only its state changed (a search as it is typed).
  useEffect(() => {
    if (first.current) first.current = false
    else if (!focusKept()) main.current?.focus()
  }, [location])

  return (
    <MeContext value={me}>
      <ToastRegion>
        <a className="skip-link" href="#main">Skip to content</a>
        <header className="topbar">
          <Link href="/" className="brand">Hedgerow</Link>
          <nav aria-label="Organizations and projects">
            <Switcher me={me} organizationId={organizationId} projectId={projectId} />
          </nav>
          <AccountMenu me={me} route={route} />
        </header>
        <main id="main" ref={main} tabIndex={-1}>
          {ended ? <SessionEnded /> : null}
          <Suspense fallback={<Loading />}>{pageOf(route)}</Suspense>
        </main>
      </ToastRegion>
    </MeContext>
  )
}
