import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { useApi } from "../api/use-api.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import type { Me } from "../shell/me.ts"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Loading } from "../ui/states.tsx"

const PATH = "/api/signup/:invite_id/"

/** The fields of the form, by the names the API's `attr` gives them. */
const FIELDS = ["first_name", "password"] as const

/**
 * Accepting an invite, from the link its e-mail carries. The API says whether the invite can be used
 * (its refusal is shown in its words); a new user gives a first name and a password and is logged in
 * by the answer, someone logged in already joins as they are. Then, the console.
 */
export default function SignupPage({ inviteId, me }: { readonly inviteId: string; readonly me: Me | undefined }) {
  usePageTitle("Join an organization")
  const invite = useApi(PATH, { params: { invite_id: inviteId } })
  const [firstName, setFirstName] = useState<string | undefined>(undefined)
  const [password, setPassword] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)

  if (invite.status === "loading") return <main id="main" className="login"><Loading /></main>
  if (invite.status === "failed") {
    return (
      <main id="main" className="login">
        <h1>This invite cannot be used</h1>
        <p role="alert" className="form-error">{invite.error.detail}</p>
        <p><Link href={hrefOf({ page: "login", next: undefined })}>Log in</Link></p>
      </main>
    )
  }
  const { organization_name, target_email, first_name } = invite.data
  const name = firstName ?? first_name

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await request("POST", PATH, { params: { invite_id: inviteId }, payload: me === undefined ? { first_name: name, password } : {} })
      // The answer logged a new user in: whatever was read before (no session) is read again.
      invalidate()
      navigate("/", { replace: true })
    } catch (cause) {
      setBusy(false)
      setError(asApiError(cause))
    }
  }

  const errorFor = (field: (typeof FIELDS)[number]) => (error?.attr === field ? error.detail : undefined)
  const formError = error !== undefined && !FIELDS.some((field) => field === error.attr) ? error.detail : undefined
  return (
    <main id="main" className="login">
      <h1>Join {organization_name}</h1>
      <p>You are invited to join {organization_name} as {target_email}.</p>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {me === undefined
          ? (
            <>
              <TextField label="First name" name="first_name" autoComplete="given-name" value={name} onValue={setFirstName} error={errorFor("first_name")} />
              <TextField
                label="Password"
                type="password"
                name="password"
                autoComplete="new-password"
                value={password}
                onValue={setPassword}
                error={errorFor("password")}
              />
            </>
          )
          : <p>You are logged in as {me.email}, and join as yourself.</p>}
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <button type="submit" className="primary" disabled={busy}>{me === undefined ? "Create account and join" : `Join ${organization_name}`}</button>
      </form>
    </main>
  )
}
