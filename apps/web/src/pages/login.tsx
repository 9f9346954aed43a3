import { type FormEvent, useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { logIn, logInWithCode } from "../api/session.ts"
import { navigate } from "../router/navigation.tsx"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"

/** The fields of the forms, by the names the API gives them in an error's `attr`. */
const FIELDS = ["email", "password", "token"] as const

/**
 * E-mail and password, then, for a user with two-factor authentication, the app's code (or a backup
 * code); the API's refusal is shown next to the field it names, or above the button. A log-in whose
 * code step has expired starts again from the password.
 */
export default function LoginPage({ next }: { readonly next: string | undefined }) {
  usePageTitle("Log in")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [askingCode, setAskingCode] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const attempt = async (step: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await step()
      invalidate()
      navigate(next ?? "/", { replace: true })
    } catch (cause) {
      const refusal = asApiError(cause)
      if (refusal.code === "2fa_required") {
        setCode("")
        setAskingCode(true)
      } else {
        if (refusal.code === "2fa_expired") setAskingCode(false)
        setError(refusal)
      }
    } finally {
      setBusy(false)
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void attempt(() => (askingCode ? logInWithCode(code) : logIn(email, password)))
  }

  const errorFor = (field: (typeof FIELDS)[number]) => (error?.attr === field ? error.detail : undefined)
  const formError = error !== undefined && !FIELDS.some((field) => field === error.attr) ? error.detail : undefined

  return (
    <main id="main" className="login">
      <h1>Log in to Hedgerow</h1>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {askingCode
          ? (
            <TextField
              label="Two-factor code"
              name="token"
              autoComplete="one-time-code"
              autoFocus
              hint="The code your authenticator app shows, or one of your backup codes."
              value={code}
              onValue={setCode}
              error={errorFor("token")}
            />
          )
          : (
            <>
              <TextField label="Email" type="email" name="email" autoComplete="username" value={email} onValue={setEmail} error={errorFor("email")} />
              <TextField
                label="Password"
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onValue={setPassword}
                error={errorFor("password")}
              />
            </>
          )}
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <button type="submit" className="primary" disabled={busy}>{askingCode ? "Verify" : "Log in"}</button>
      </form>
    </main>
  )
}
