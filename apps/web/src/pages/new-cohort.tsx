import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidateWith } from "../api/resources.ts"
import { urlOf } from "../api/use-api.ts"
import { COHORT_PATH, COHORTS_PATH, cohortsPrefix } from "../cohorts/cohort.ts"
import { CohortForm } from "../cohorts/cohort-form.tsx"
import { type CohortDraft, cohortFieldsOf, emptyCohortDraft } from "../cohorts/draft.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { usePageTitle } from "../ui/page-title.ts"

/** A new cohort's form; once the API has created it, its page (a static one's persons). */
export default function NewCohortPage({ projectId }: { readonly projectId: string }) {
  usePageTitle("New cohort")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [initial] = useState(emptyCohortDraft)
  const save = (draft: CohortDraft) => {
    setBusy(true)
    setError(undefined)
    return request("POST", COHORTS_PATH, { params: { project_id: projectId }, payload: cohortFieldsOf(draft, true) }).then(
      (cohort) => {
        const cohortId = String(cohort.id)
        invalidateWith(cohortsPrefix(projectId), urlOf(COHORT_PATH, { params: { project_id: projectId, id: cohortId } }), cohort)
        // Saved: nothing is left to lose, so the form's guard is not asked.
        navigate(hrefOf({ page: "cohort", projectId, cohortId, tab: cohort.is_static ? "persons" : "settings", pageNumber: 1 }), {
          replace: true,
          force: true
        })
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
        <Link href={hrefOf({ page: "cohorts", projectId, search: "", pageNumber: 1 })}>Cohorts</Link>
      </p>
      <h1>New cohort</h1>
      <CohortForm initial={initial} isNew readOnly={false} busy={busy} error={error} onSave={save} />
    </>
  )
}
