import { type FormEvent, useEffect, useRef, useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { logIn } from "../api/session.ts"
import { CodeStep } from "../login/code-step.tsx"
import { FailureAlert } from "../login/failure-alert.tsx"
import { usePrecheck } from "../login/precheck.ts"
import { SocialLinks, SsoLink } from "../login/sso-links.tsx"
import { ssoHref } from "../login/sso.ts"
import { navigate } from "../router/navigation.tsx"
import type { LoginFailure } from "../router/routes.ts"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"

/** The fields of the form, by the names the API gives them in an error's `attr`. */
const FIELDS = ["email", "password"] as const

/**
 * E-mail and password, and single sign-on where it applies: once the e-mail is typed, the precheck
 * says whether its domain requires a provider (the password gives way to that provider's link) or offers
 * SAML beside the password; the deployment's OAuth providers are offered to everyone else. A user with
 * two-factor authentication then gives a code. Every way out ends at `next`.
 */
export default function LoginPage({ next, failure }: { readonly next: string | undefined; readonly failure: LoginFailure | undefined }) {
  usePageTitle("Log in")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [step, setStep] = useState<"password" | "code" | "again">("password")
  // Shown until the person tries again here.
  const [shownFailure, setShownFailure] = useState(failure)
  const precheck = usePrecheck(email)
  const enforced = precheck.answer?.sso_enforcement ?? null
  const enforcedLink = useRef<HTMLAnchorElement>(null)

  // The password field goes when the e-mail's domain requires SSO, often while it has the focus (the
  // precheck runs as the e-mail field is left): the focus goes to the link that takes its place.
  useEffect(() => {
    if (enforced !== null && (document.activeElement === null || document.activeElement === document.body)) enforcedLink.current?.focus()
  }, [enforced])

  // Back from the code step the password field mounts with the focus; then it is an ordinary step again,
  // so that the field, hidden and shown by a later precheck, does not take the focus from the e-mail.
  useEffect(() => {
    if (step === "again") setStep("password")
  }, [step])

  const loggedIn = () => {
    invalidate()
    navigate(next ?? "/", { replace: true })
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (enforced !== null) {
      window.location.assign(ssoHref(enforced, email.trim(), next))
      return
    }
    setBusy(true)
    setError(undefined)
    setShownFailure(undefined)
    try {
      await logIn(email, password)
      loggedIn()
    } catch (cause) {
      const refusal = asApiError(cause)
      if (refusal.code === "2fa_required") {
        setStep("code")
      } else {
        // The domain enforces SSO though the last answer said not: ask again, and the link appears.
        if (refusal.code === "sso_enforced") precheck.recheck()
        setError(refusal)
      }
    } finally {
      setBusy(false)
    }
  }

  const startOver = (reason: ApiError | undefined) => {
    setPassword("")
    setError(reason)
    setStep("again")
  }

  const errorFor = (field: (typeof FIELDS)[number]) => (error?.attr === field ? error.detail : undefined)
  const formError = error !== undefined && !FIELDS.some((field) => field === error.attr) ? error.detail : undefined

  return (
    <main id="main" className="login">
      <h1>Log in to Hedgerow</h1>
      {shownFailure === undefined ? null : <FailureAlert failure={shownFailure} />}
      {step === "code"
        ? <CodeStep onLoggedIn={loggedIn} onStartOver={startOver} />
        : (
          <>
            <form onSubmit={submit} noValidate aria-busy={busy}>
              <TextField
                label="Email"
                type="email"
                name="email"
                autoComplete="username"
                value={email}
                onValue={setEmail}
                onBlur={precheck.check}
                error={errorFor("email")}
              />
              {enforced === null
                ? (
                  <TextField
                    label="Password"
                    type="password"
                    name="password"
                    autoComplete="current-password"
                    // Back from the code step: the password is what is asked again.
                    autoFocus={step === "again"}
                    value={password}
                    onValue={setPassword}
                    error={errorFor("password")}
                  />
                )
                : null}
              {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
              {enforced === null
                ? <button type="submit" className="primary" disabled={busy}>Log in</button>
                : <SsoLink ref={enforcedLink} provider={enforced} email={email.trim()} next={next} primary />}
              {enforced === null && precheck.answer?.saml_available === true
                ? <SsoLink provider="saml" email={email.trim()} next={next} />
                : null}
            </form>
            {enforced === null && precheck.answer?.saml_available !== true ? <SocialLinks next={next} /> : null}
          </>
        )}
    </main>
  )
}
