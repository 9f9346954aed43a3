import { SIGN_IN_LINK_AGE_SECONDS } from "@hedgerow/core/sign-in-link"
import { useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { logInWithLink } from "../api/session.ts"
import { CodeStep } from "../login/code-step.tsx"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Loading } from "../ui/states.tsx"

/** The operator's command that makes a new link. */
const NEW_LINK_COMMAND = "npx hedgerow admin users sign-in-link <your e-mail>"

/**
 * The link's secret, taken from the address's fragment once and then removed from the address bar (and
 * so from the history entry), so it is neither shown nor kept; a later render gets the same secret.
 */
let taken: string | undefined
const takeSecret = (): string | undefined => {
  const fragment = window.location.hash.slice(1)
  if (fragment !== "") {
    taken = fragment
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search)
  }
  return taken
}

/** One POST per secret, however often the page mounts: a link works once. */
const redemptions = new Map<string, Promise<unknown>>()
const redeemOnce = (secret: string): Promise<unknown> => {
  const started = redemptions.get(secret) ?? logInWithLink(secret)
  redemptions.set(secret, started)
  return started
}

type Step =
  | { readonly kind: "ready"; readonly secret: string }
  | { readonly kind: "working" }
  | { readonly kind: "code" }
  | { readonly kind: "refused"; readonly refusal: ApiError | undefined }

/**
 * Where a one-time sign-in link lands (`/sign-in-link#<secret>`): once the person presses "Sign in", the
 * secret, which the fragment keeps out of every request line and log, is posted to the API, and they land
 * on the console's home, logged in; a user with two-factor authentication gives a code first. Nothing is
 * posted on opening the page, so a program that opens links to look at them (a chat's or a mail
 * scanner's preview) cannot spend the link, nor switch a logged-in browser to its account unasked. A link
 * that cannot be used says why, in the API's words, and how to get a new one.
 */
export default function SignInLinkPage() {
  usePageTitle("Sign in with a link")
  const [step, setStep] = useState<Step>(() => {
    const secret = takeSecret()
    return secret === undefined ? { kind: "refused", refusal: undefined } : { kind: "ready", secret }
  })

  const loggedIn = () => {
    invalidate()
    navigate("/", { replace: true })
  }

  const signIn = (secret: string) => {
    setStep({ kind: "working" })
    redeemOnce(secret).then(loggedIn, (cause: unknown) => {
      const refusal = asApiError(cause)
      setStep(refusal.code === "2fa_required" ? { kind: "code" } : { kind: "refused", refusal })
    })
  }

  switch (step.kind) {
    case "ready":
      return (
        <main id="main" className="login sign-in-link">
          <h1>Sign in to Hedgerow</h1>
          <p>This one-time link signs you in to the web console. It works once: after this, log in as usual.</p>
          <button type="button" className="primary" autoFocus onClick={() => signIn(step.secret)}>Sign in</button>
        </main>
      )
    case "working":
      return (
        <main id="main" className="login">
          <h1>Signing you in</h1>
          <Loading label="Checking the sign-in link…" />
        </main>
      )
    case "code":
      return (
        <main id="main" className="login">
          <h1>Log in to Hedgerow</h1>
          <p>The link is accepted. Your account uses two-factor authentication: give a code to finish.</p>
          <CodeStep onLoggedIn={loggedIn} onStartOver={() => navigate(hrefOf({ page: "login", next: undefined }))} />
        </main>
      )
    case "refused":
      return (
        <main id="main" className="login sign-in-link">
          <h1>This sign-in link cannot be used</h1>
          <p role="alert" className="form-error">
            {step.refusal?.detail ?? "The link is incomplete: open the whole link, with the part after its #."}
          </p>
          <p>
            A sign-in link works once, for {SIGN_IN_LINK_AGE_SECONDS / 3600} hours, and a newer link for the same person replaces it. Whoever runs this
            server can make a new one:
          </p>
          <pre><code>{NEW_LINK_COMMAND}</code></pre>
          <p><Link href={hrefOf({ page: "login", next: undefined })}>Log in with an e-mail and a password</Link></p>
        </main>
      )
  }
}
