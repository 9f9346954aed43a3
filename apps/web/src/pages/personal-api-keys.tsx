import { useRef, useState } from "react"
import { request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { reread, useApi } from "../api/use-api.ts"
import { KEY_PATH, KEYS_PATH, type PersonalApiKey } from "../keys/draft.ts"
import { NewKeyValue } from "../keys/new-value.tsx"
import { restrictionSummary, useProjects } from "../keys/restrictions.ts"
import { scopesSummary } from "../keys/scopes.ts"
import { When } from "../ui/when.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { useMe } from "../shell/me.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Empty, Resourceful } from "../ui/states.tsx"

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
  const [rolled, setRolled] = useState<PersonalApiKey | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)

  // The list read again and swapped in, so that no loading state unmounts the rows (nor the keyboard's place).
  const refresh = () => reread(KEYS_PATH, KEYS_PATH, {}).catch(() => invalidate(KEYS_PATH))
  const onRolled = (answer: PersonalApiKey) => {
    setRolled(answer)
    setNotice(undefined)
    refresh()
  }
  const onRevoked = (key: PersonalApiKey) => {
    setRolled((old) => old?.id === key.id ? undefined : old)
    setNotice(`“${key.label}” is revoked.`)
    refresh()
    // The row and its buttons go: the keyboard goes on from the page's heading.
    heading.current?.focus()
  }

  const projectList = projects.status === "ready" ? projects.data.results : undefined
  return (
    <>
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>Personal API keys</h1>
        <Link className="button primary" href={hrefOf({ page: "newPersonalApiKey" })}>New personal API key</Link>
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
              <table className="keys stack">
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
                      <td data-label="Value"><code>{key.mask_value}</code></td>
                      <td data-label="Scopes">{scopesSummary(key.scopes)}</td>
                      <td data-label="Organizations and projects">{restrictionSummary(key, me, projectList)}</td>
                      <td data-label="Created"><When at={key.created_at} /></td>
                      <td data-label="Last used"><When at={key.last_used_at} /></td>
                      <td data-label="Last rolled"><When at={key.last_rolled_at} /></td>
                      <td>
                        <div className="row-actions">
                          <ConfirmDialog
                            label={<>Roll<span className="visually-hidden"> “{key.label}”</span></>}
                            title={`Roll “${key.label}”?`}
                            confirmLabel="Roll key"
                            action={() => request("POST", "/api/personal_api_keys/:id/roll/", { params: { id: key.id } })}
                            onDone={onRolled}
                          >
                            <p>Its value in use now stops working at once. The new value is shown once, here.</p>
                          </ConfirmDialog>
                          <ConfirmDialog
                            label={<>Revoke<span className="visually-hidden"> “{key.label}”</span></>}
                            title={`Revoke “${key.label}”?`}
                            confirmLabel="Revoke key"
                            action={() => request("DELETE", KEY_PATH, { params: { id: key.id } })}
                            onDone={() => onRevoked(key)}
                          >
                            <p>Anything using it is refused from now on. This cannot be undone.</p>
                          </ConfirmDialog>
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
