import { useEffect, useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { useApi } from "../api/use-api.ts"
import { KEY_PATH, KEYS_PATH, type PersonalApiKey } from "../keys/draft.ts"
import { NewKeyValue } from "../keys/new-value.tsx"
import { restrictionSummary, useProjects } from "../keys/restrictions.ts"
import { scopesSummary } from "../keys/scopes.ts"
import { When } from "../keys/when.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { useMe } from "../shell/me.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Empty, Resourceful } from "../ui/states.tsx"

type Action = "roll" | "revoke"

const ASKED: Record<Action, { readonly title: (label: string) => string; readonly confirm: string; readonly consequence: string }> = {
  roll: {
    title: (label) => `Roll “${label}”?`,
    confirm: "Roll key",
    consequence: "Its value in use now stops working at once. The new value is shown once, here."
  },
  revoke: {
    title: (label) => `Revoke “${label}”?`,
    confirm: "Revoke key",
    consequence: "Anything using it is refused from now on. This cannot be undone."
  }
}

/**
 * The user's personal API keys (the API lists them all: at most 10, never paginated), each with what it
 * may do and reach, and its roll and revoke, both asked for first. A rolled key's new value is shown
 * once, above the list, and forgotten on leaving.
 */
export default function PersonalApiKeysPage() {
  usePageTitle("Personal API keys")
  const me = useMe()
  const keys = useApi(KEYS_PATH, {})
  const projects = useProjects()
  const [asked, setAsked] = useState<{ readonly action: Action; readonly key: PersonalApiKey } | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [rolled, setRolled] = useState<PersonalApiKey | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)
  const [revoked, setRevoked] = useState(0)
  // A revoked key's row, and the button the closing dialog gives focus back to, go: the heading takes it.
  useEffect(() => {
    if (revoked > 0) heading.current?.focus()
  }, [revoked])

  const ask = (action: Action, key: PersonalApiKey) => {
    setError(undefined)
    setAsked({ action, key })
  }
  const act = () => {
    if (asked === undefined) return
    const { action, key } = asked
    const params = { id: key.id }
    setBusy(true)
    setError(undefined)
    const done = action === "roll"
      ? request("POST", "/api/personal_api_keys/:id/roll/", { params }).then((answer) => {
        setRolled(answer)
        setNotice(undefined)
      })
      : request("DELETE", KEY_PATH, { params }).then(() => {
        setRolled((old) => old?.id === key.id ? undefined : old)
        setNotice(`“${key.label}” is revoked.`)
        setRevoked((count) => count + 1)
      })
    done.then(
      () => {
        setAsked(undefined)
        invalidate(KEYS_PATH)
      },
      (cause: unknown) => setError(asApiError(cause))
    ).finally(() => setBusy(false))
  }

  const projectList = projects.status === "ready" ? projects.data.results : undefined
  return (
    <>
      {/* First, so that its closing (which puts focus back where it was) comes before a new value takes focus. */}
      <ConfirmDialog
        open={asked !== undefined}
        title={asked === undefined ? "" : ASKED[asked.action].title(asked.key.label)}
        confirmLabel={asked === undefined ? "" : ASKED[asked.action].confirm}
        busy={busy}
        onConfirm={act}
        onCancel={() => setAsked(undefined)}
      >
        <p>{asked === undefined ? "" : ASKED[asked.action].consequence}</p>
        {error === undefined ? null : <p role="alert" className="form-error">{error.detail}</p>}
      </ConfirmDialog>
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>Personal API keys</h1>
        <Link href={hrefOf({ page: "newPersonalApiKey" })}>New personal API key</Link>
      </div>
      <p className="hint">Keys let scripts call the API as you, with only the scopes and the organizations or projects you give each.</p>
      {rolled === undefined || rolled.value === null ? null : (
        <NewKeyValue label={rolled.label} value={rolled.value}>
          <button type="button" onClick={() => setRolled(undefined)}>I have copied it; hide it</button>
        </NewKeyValue>
      )}
      <p role="status" className="notice">{notice ?? ""}</p>
      <Resourceful resource={keys} onRetry={() => invalidate(KEYS_PATH)}>
        {(list) =>
          list.length === 0
            ? (
              <Empty title="You have no personal API keys.">
                <Link href={hrefOf({ page: "newPersonalApiKey" })}>Create one</Link>
              </Empty>
            )
            : (
              <table className="keys">
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Value</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Organizations and projects</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Last rolled</th>
                    <th scope="col"><span className="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((key) => (
                    <tr key={key.id}>
                      <th scope="row"><Link href={hrefOf({ page: "personalApiKey", keyId: key.id })}>{key.label}</Link></th>
                      <td><code>{key.mask_value}</code></td>
                      <td>{scopesSummary(key.scopes)}</td>
                      <td>{restrictionSummary(key, me, projectList)}</td>
                      <td><When at={key.created_at} /></td>
                      <td><When at={key.last_used_at} /></td>
                      <td><When at={key.last_rolled_at} /></td>
                      <td>
                        <div className="row-actions">
                          <button type="button" onClick={() => ask("roll", key)}>
                            Roll<span className="visually-hidden"> “{key.label}”</span>
                          </button>
                          <button type="button" onClick={() => ask("revoke", key)}>
                            Revoke<span className="visually-hidden"> “{key.label}”</span>
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
      </Resourceful>
    </>
  )
}
