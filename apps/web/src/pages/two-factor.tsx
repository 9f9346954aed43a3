import { type FormEvent, useEffect, useId, useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateFailed } from "../api/resources.ts"
import type { TwoFactorRefusal } from "../api/two-factor-refusals.ts"
import { reread, useApi } from "../api/use-api.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { CopyButton } from "../ui/copy-button.tsx"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"

const STATUS_PATH = "/api/users/@me/two_factor_status/"

/** A started setup's secret, shown while this page is open only; the API never answers it again. */
interface Setup {
  readonly secret: string
  readonly otpauth_uri: string
}

/** The secret in groups of four, as apps show secrets for typing in. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret

/**
 * The app's secret for setup and the code that turns it on: the secret to type into an authenticator
 * app (or its `otpauth://` link to open on the phone that has the app), then the app's current code.
 */
const SetupForm = ({ setup, onDone }: { readonly setup: Setup; readonly onDone: () => void }) => {
  const id = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [code, setCode] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  useEffect(() => heading.current?.focus(), [setup.secret])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    request("POST", "/api/users/@me/two_factor_validate/", { payload: { token: code } }).then(onDone, (cause: unknown) =>
      setError(asApiError(cause))
    ).finally(() => setBusy(false))
  }
  return (
    <section aria-labelledby={id} className="new-key-value">
      <h2 id={id} ref={heading} tabIndex={-1}>Add Hedgerow to your authenticator app</h2>
      <p>Enter this secret in the app (a time-based code, 6 digits, every 30 seconds), or open the link on the phone that has the app:</p>
      <p className="key-value">
        <code>{grouped(setup.secret)}</code> <CopyButton text={setup.secret} what="the secret" />
      </p>
      <p><a href={setup.otpauth_uri}>Open in an authenticator app</a></p>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <TextField
          label="Code from the app"
          name="token"
          autoComplete="one-time-code"
          value={code}
          onValue={setCode}
          error={error?.attr === "token" ? error.detail : undefined}
        />
        {error === undefined || error.attr === "token" ? null : <p role="alert" className="form-error">{error.detail}</p>}
        <button type="submit" className="primary" disabled={busy}>Turn on</button>
      </form>
    </section>
  )
}

/** New backup codes, right after the API made them: the only time anyone sees them. */
const BackupCodesShown = ({ codes, onHide }: { readonly codes: ReadonlyArray<string>; readonly onHide: () => void }) => {
  const id = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [codes])
  return (
    <section aria-labelledby={id} className="new-key-value">
      <h2 id={id} ref={heading} tabIndex={-1}>Your backup codes</h2>
      <p className="warning">
        <strong>Keep them somewhere safe now: they are shown this once.</strong> Each logs you in once when
        your app is not at hand; Hedgerow keeps only their hashes.
      </p>
      <ul>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <p><CopyButton text={codes.join("\n")} what="the backup codes" /></p>
      <button type="button" onClick={onHide}>I have kept them; hide them</button>
    </section>
  )
}

/** Why the organization's rule sent the person here, and what lets them through. */
const REQUIRED_MESSAGES: Readonly<Record<TwoFactorRefusal, string>> = {
  setup: "Your organization requires two-factor authentication. Set up an authenticator app to continue.",
  verification:
    "Your organization requires two-factor authentication. Log out, then log in again with a code from your authenticator app to continue."
}

/**
 * The user's two-factor authentication: whether it is on, setting up an authenticator app, new backup
 * codes and turning it off (both asked for first). Secrets and codes live in this page's state alone.
 * `required`: the organization's rule sent the person here, which the page says first.
 */
export default function TwoFactorPage({ required }: { readonly required?: TwoFactorRefusal | undefined }) {
  usePageTitle("Two-factor authentication")
  const status = useApi(STATUS_PATH, {})
  const [setup, setSetup] = useState<Setup | undefined>(undefined)
  const [codes, setCodes] = useState<ReadonlyArray<string> | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)

  const refresh = () => reread(STATUS_PATH, STATUS_PATH, {}).catch(() => invalidate(STATUS_PATH))
  const start = () => {
    setError(undefined)
    setNotice(undefined)
    request("GET", "/api/users/@me/two_factor_start_setup/").then(setSetup, (cause: unknown) => setError(asApiError(cause).detail))
  }
  const turnedOn = () => {
    setSetup(undefined)
    setNotice("Two-factor authentication is on: log-ins now ask for a code from your app.")
    refresh()
    // The code just taken lets this session through its organization's rule: what was refused is read again.
    invalidateFailed()
    heading.current?.focus()
  }
  const turnedOff = () => {
    setCodes(undefined)
    setNotice("Two-factor authentication is off.")
    refresh()
    heading.current?.focus()
  }

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>Two-factor authentication</h1>
      {required === undefined ? null : <p role="alert" className="warning">{REQUIRED_MESSAGES[required]}</p>}
      <p className="hint">With it on, logging in with your password also asks for a code from an authenticator app on your phone.</p>
      <p role="status" className="notice">{notice ?? ""}</p>
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
      <Resourceful resource={status} onRetry={() => invalidate(STATUS_PATH)}>
        {(current) =>
          current.is_enabled
            ? (
              <>
                <p>On, with an authenticator app. Backup codes left: {current.backup_codes_remaining}.</p>
                {current.backup_codes_remaining > 0 ? null : (
                  <p className="warning">
                    Without backup codes, a lost phone means no way to log in: make new codes and keep them somewhere safe.
                  </p>
                )}
                {codes === undefined ? null : <BackupCodesShown codes={codes} onHide={() => setCodes(undefined)} />}
                <div className="row-actions">
                  <ConfirmDialog
                    label="New backup codes"
                    title="Make new backup codes?"
                    confirmLabel="Make new codes"
                    action={() => request("POST", "/api/users/@me/two_factor_backup_codes/")}
                    onDone={(made) => {
                      setCodes(made.backup_codes)
                      refresh()
                    }}
                  >
                    <p>Five new codes are shown once, here; the codes you have now stop working.</p>
                  </ConfirmDialog>
                  <ConfirmDialog
                    label="Turn off"
                    title="Turn off two-factor authentication?"
                    confirmLabel="Turn off"
                    action={() => request("POST", "/api/users/@me/two_factor_disable/")}
                    onDone={turnedOff}
                  >
                    <p>Your password alone will log you in. The app's secret and your backup codes are forgotten.</p>
                  </ConfirmDialog>
                </div>
              </>
            )
            : setup === undefined
            ? (
              <>
                <p>Off.</p>
                <button type="button" className="primary" onClick={start}>Set up an authenticator app</button>
              </>
            )
            : <SetupForm setup={setup} onDone={turnedOn} />}
      </Resourceful>
    </>
  )
}
