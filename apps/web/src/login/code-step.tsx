import { type FormEvent, useRef, useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { logInWithCode } from "../api/session.ts"
import { TextField } from "../ui/field.tsx"

/**
 * The second step of a log-in whose user has two-factor authentication: the code the authenticator app
 * shows (the field brings up a phone's number pad), or, after "Use a backup code", one of the backup
 * codes, which hold letters. Every refusal is about the code, so it stands by the field and is read out;
 * a log-in too old to finish, and "Start over", go back to the password.
 */
export const CodeStep = ({ onLoggedIn, onStartOver }: {
  readonly onLoggedIn: () => void
  /** Back to the password, with the reason when the server gave one. */
  readonly onStartOver: (reason: ApiError | undefined) => void
}) => {
  const [code, setCode] = useState("")
  const [backup, setBackup] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const field = useRef<HTMLDivElement>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await logInWithCode(code.trim())
      onLoggedIn()
    } catch (cause) {
      const refusal = asApiError(cause)
      if (refusal.code === "2fa_expired") onStartOver(refusal)
      else setError(refusal)
    } finally {
      setBusy(false)
    }
  }

  const switchKind = () => {
    setBackup(!backup)
    setCode("")
    setError(undefined)
    field.current?.querySelector("input")?.focus()
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <div ref={field}>
        <TextField
          label="Two-factor code"
          name="token"
          autoComplete="one-time-code"
          inputMode={backup ? "text" : "numeric"}
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          hint={backup ? "One of the backup codes you saved when you set up two-factor authentication." : "The code your authenticator app shows."}
          value={code}
          onValue={setCode}
          error={error?.detail}
          announce
        />
      </div>
      <button type="submit" className="primary" disabled={busy}>Verify</button>
      <div className="code-choices">
        <button type="button" onClick={switchKind}>{backup ? "Use the app's code" : "Use a backup code"}</button>
        <button type="button" onClick={() => onStartOver(undefined)}>Start over</button>
      </div>
    </form>
  )
}
