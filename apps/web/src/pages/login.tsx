import { type FormEvent, useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { logIn } from "../api/session.ts"
import { navigate } from "../router/navigation.tsx"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"

/** The fields of the form, by the names the API gives them in an error's `attr`. */
const FIELDS = ["email", "password"] as const

/** E-mail and password; the API's refusal is shown next to the field it names, or above the button. */
export default function LoginPage({ next }: { readonly next: string | undefined }) {
  usePageTitle("Log in")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await logIn(email, password)
      invalidate()
      navigate(next ?? "/", { replace: true })
    } catch (cause) {
      setError(asApiError(cause))
    } finally {
      setBusy(false)
    }
  }

  const errorFor = (field: (typeof FIELDS)[number]) => (error?.attr === field ? error.detail : undefined)
  const formError = error !== undefined && !FIELDS.some((field) => field === error.attr) ? error.detail : undefined

  return (
    <main id="main" className="login">
      <h1>Log in to Hedgerow</h1>
      <form onSubmit={submit} noValidate aria-busy={busy}>
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
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <button type="submit" className="primary" disabled={busy}>Log in</button>
      </form>
    </main>
  )
}
