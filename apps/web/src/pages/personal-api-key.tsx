import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { changedFields, type KeyDraft, keyDraftOf, KEY_PATH, KEYS_PATH, type PersonalApiKey } from "../keys/draft.ts"
import { KeyForm } from "../keys/key-form.tsx"
import { When } from "../ui/when.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"
import { useToast } from "../ui/toast.tsx"

/** One key: its label, scopes and restrictions to change (its value is never shown again, only its mask). */
export default function PersonalApiKeyPage({ keyId }: { readonly keyId: string }) {
  const options = { params: { id: keyId } }
  const url = urlOf(KEY_PATH, options)
  const key = useApi(KEY_PATH, options)
  usePageTitle(key.status === "ready" ? key.data.label : "Personal API key")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  // Said at the window's foot: the form is taller than a phone's screen, and Save is at its end.
  const toast = useToast()

  const save = (current: PersonalApiKey, draft: KeyDraft) => {
    setError(undefined)
    const payload = changedFields(keyDraftOf(current), draft)
    if (Object.keys(payload).length === 0) return toast("Nothing has changed.")
    setBusy(true)
    request("PATCH", KEY_PATH, { ...options, payload }).then(
      (updated) => {
        invalidateWith(KEYS_PATH, url, updated)
        toast("Saved.")
      },
      (cause: unknown) => setError(asApiError(cause))
    ).finally(() => setBusy(false))
  }

  return (
    <>
      <p className="breadcrumb"><Link href={hrefOf({ page: "personalApiKeys" })}>Personal API keys</Link></p>
      <Resourceful resource={key} onRetry={() => invalidate(url)}>
        {(current) => (
          <>
            <h1>{current.label}</h1>
            <dl className="details">
              <dt>Value</dt>
              <dd><code>{current.mask_value}</code></dd>
              <dt>Created</dt>
              <dd><When at={current.created_at} /></dd>
              <dt>Last used</dt>
              <dd><When at={current.last_used_at} /></dd>
              <dt>Last rolled</dt>
              <dd><When at={current.last_rolled_at} /></dd>
            </dl>
            <KeyForm
              key={current.id}
              initial={keyDraftOf(current)}
              busy={busy}
              error={error}
              submitLabel="Save"
              onSave={(draft) => save(current, draft)}
            />
          </>
        )}
      </Resourceful>
    </>
  )
}
