import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { emptyKeyDraft, type KeyDraft, keyFieldsOf, KEYS_PATH, type PersonalApiKey } from "../keys/draft.ts"
import { KeyForm } from "../keys/key-form.tsx"
import { NewKeyValue } from "../keys/new-value.tsx"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { usePageTitle } from "../ui/page-title.ts"

/** A new key's form; once the API has made it, its value, this once (a reload shows an empty form). */
export default function NewPersonalApiKeyPage() {
  usePageTitle("New personal API key")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [created, setCreated] = useState<PersonalApiKey | undefined>(undefined)
  const [initial] = useState(emptyKeyDraft)
  const save = (draft: KeyDraft) => {
    setBusy(true)
    setError(undefined)
    request("POST", KEYS_PATH, { payload: keyFieldsOf(draft) }).then(
      (key) => {
        // The list is read again; the answer, which holds the value, is kept nowhere but here.
        invalidate(KEYS_PATH)
        setCreated(key)
      },
      (cause: unknown) => setError(asApiError(cause))
    ).finally(() => setBusy(false))
  }
  const back = hrefOf({ page: "personalApiKeys" })
  return (
    <>
      <p className="breadcrumb"><Link href={back}>Personal API keys</Link></p>
      <h1>New personal API key</h1>
      {created === undefined || created.value === null
        ? <KeyForm initial={initial} busy={busy} error={error} submitLabel="Create key" onSave={save} />
        : (
          <NewKeyValue label={created.label} value={created.value}>
            <p><Link href={back}>Back to your personal API keys</Link></p>
          </NewKeyValue>
        )}
    </>
  )
}
