import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidateWith } from "../api/resources.ts"
import { urlOf } from "../api/use-api.ts"
import { type Draft, emptyDraft } from "../flags/draft.ts"
import { FLAG_PATH, FLAGS_PATH, flagsPrefix } from "../flags/flag.tsx"
import { FlagForm } from "../flags/flag-form.tsx"
import { fieldsOf } from "../flags/save.ts"
import { useSuggestions } from "../flags/suggestions.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { ALL_FLAGS, hrefOf } from "../router/routes.ts"
import { usePageTitle } from "../ui/page-title.ts"

/** A new flag's form; once the API has created it, its page. */
export default function NewFlagPage({ projectId }: { readonly projectId: string }) {
  usePageTitle("New feature flag")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [initial] = useState(emptyDraft)
  const suggestions = useSuggestions(projectId, undefined)
  const save = (draft: Draft): Promise<boolean> => {
    setBusy(true)
    setError(undefined)
    return request("POST", FLAGS_PATH, { params: { project_id: projectId }, payload: fieldsOf(draft) }).then(
      (flag) => {
        const params = { project_id: projectId, id: String(flag.id) }
        invalidateWith(flagsPrefix(projectId), urlOf(FLAG_PATH, { params }), flag)
        // Saved: nothing is left to lose, so the form's guard is not asked.
        navigate(hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "settings", pageNumber: 1 }), { replace: true, force: true })
        return true
      },
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause))
        return false
      }
    )
  }
  return (
    <>
      <p className="breadcrumb">
        <Link href={hrefOf({ page: "flags", projectId, list: ALL_FLAGS })}>
          Feature flags
        </Link>
      </p>
      <h1>New feature flag</h1>
      <FlagForm initial={initial} busy={busy} error={error} suggestions={suggestions} onSave={save} />
    </>
  )
}
