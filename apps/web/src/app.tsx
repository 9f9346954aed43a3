import { lazy, Suspense, useEffect } from "react"
import { onSessionLost } from "./api/client.ts"
import { onTwoFactorRequired } from "./api/resources.ts"
import { useApi } from "./api/use-api.ts"
import { navigate, useLocation } from "./router/navigation.tsx"
import { ALL_FLAGS, hrefOf, parseRoute } from "./router/routes.ts"
import type { Me } from "./shell/me.ts"
import { endSessionInShell, SessionEnded, useSessionEnded } from "./shell/session-ended.tsx"
import { Shell } from "./shell/shell.tsx"
import { useFocusKeptThroughWrites } from "./ui/kept-focus.ts"
import { Failed, Loading } from "./ui/states.tsx"

const LoginPage = lazy(() => import("./pages/login.tsx"))
const SignupPage = lazy(() => import("./pages/signup.tsx"))
const SignInLinkPage = lazy(() => import("./pages/sign-in-link.tsx"))

const here = () => window.location.pathname + window.location.search

// A call refused for want of a session: where the shell is on screen, the session has ended, and the
// shell says so (ending nothing the person typed); otherwise there was none, so log in, then come back
// here. The log-in, a sign-in link and an invite's sign-up need none.
onSessionLost(() => {
  const { page } = parseRoute(window.location.pathname, window.location.search)
  if (page === "login" || page === "signup" || page === "signInLink" || endSessionInShell()) return
  navigate(hrefOf({ page: "login", next: here() === "/" ? undefined : here() }), { replace: true })
})

// The user's organization requires two-factor authentication and this session has not passed it: the
// two-factor page says so and offers the way (its endpoints stay open to the session).
onTwoFactorRequired((required) => {
  const target = hrefOf({ page: "twoFactor", required })
  if (here() !== target) navigate(target, { replace: true })
})

/** The console's start: the feature flags of the user's current project, else their organization. */
const homeOf = (me: Me): string | undefined =>
  me.team !== null
    ? hrefOf({ page: "flags", projectId: String(me.team.id), list: ALL_FLAGS })
    : me.organization !== null
    ? hrefOf({ page: "organization", organizationId: me.organization.id, pageNumber: 1 })
    : undefined

const Redirect = ({ to }: { readonly to: string }) => {
  useEffect(() => navigate(to, { replace: true }), [to])
  return <Loading />
}

/** Who is logged in decides between the log-in page and the shell; the URL decides the page. */
export const App = () => {
  const location = useLocation()
  const query = location.indexOf("?")
  const route = query === -1 ? parseRoute(location, "") : parseRoute(location.slice(0, query), location.slice(query))
  const me = useApi("/api/users/@me/", {})
  const ended = useSessionEnded()
  useFocusKeptThroughWrites()

  if (route.page === "login") {
    if (me.status === "ready") return <Redirect to={route.next ?? "/"} />
    return (
      <Suspense fallback={<Loading />}>
        <LoginPage next={route.next} failure={route.failure} />
      </Suspense>
    )
  }
  if (route.page === "signInLink") {
    // Outside the shell, with or without a session: the link logs its own user in.
    return (
      <Suspense fallback={<Loading />}>
        <SignInLinkPage />
      </Suspense>
    )
  }
  if (route.page === "signup") {
    // Outside the shell: a new user has no session; someone logged in joins as themself.
    if (me.status === "loading") return <main id="main"><Loading /></main>
    return (
      <Suspense fallback={<Loading />}>
        <SignupPage inviteId={route.inviteId} me={me.status === "ready" ? me.data : undefined} />
      </Suspense>
    )
  }
  switch (me.status) {
    case "loading":
      return <main id="main"><Loading /></main>
    case "failed":
      // A 401 is on its way to the log-in page, unless it ended a session the shell was showing.
      if (me.error.status === 401) return <main id="main">{ended ? <SessionEnded /> : <Loading />}</main>
      return <main id="main"><Failed error={me.error} onRetry={() => window.location.reload()} /></main>
    case "ready": {
      if (route.page !== "home") return <Shell me={me.data} route={route} />
      const home = homeOf(me.data)
      if (home !== undefined) return <Redirect to={home} />
      return (
        <main id="main">
          <h1>Hedgerow</h1>
          <p>You are not a member of any organization yet. Ask an owner of one to invite you.</p>
        </main>
      )
    }
  }
}
