import { useEffect, useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { CohortActivity } from "../cohorts/activity.tsx"
import { type Cohort, cohortKind, cohortName, COHORT_PATH, cohortsPrefix } from "../cohorts/cohort.ts"
import { CohortForm } from "../cohorts/cohort-form.tsx"
import { type CohortDraft, cohortDraftOf, cohortFieldsOf } from "../cohorts/draft.ts"
import { CohortPersons } from "../cohorts/persons.tsx"
import { Link } from "../router/navigation.tsx"
import { type CohortTab, hrefOf } from "../router/routes.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"
import { Tabs } from "../ui/tabs.tsx"

const TAB_WORDS: Record<CohortTab, string> = { settings: "Settings", persons: "Persons", activity: "Activity" }

/** The cohort's tabs: a static one's persons, a dynamic one's none (who matches is decided at evaluation). */
const tabsOf = (cohort: Cohort): ReadonlyArray<CohortTab> => cohort.is_static ? ["settings", "persons", "activity"] : ["settings", "activity"]

/**
 * One cohort: its settings form (who belongs, for a dynamic one), a static one's persons, and its
 * activity, each a tab in the URL. Deleting asks first; a deleted cohort is shown read-only, with Restore.
 */
export default function CohortPage({ projectId, cohortId, tab, pageNumber }: {
  readonly projectId: string
  readonly cohortId: string
  readonly tab: CohortTab
  readonly pageNumber: number
}) {
  const options = { params: { project_id: projectId, id: cohortId } }
  const key = urlOf(COHORT_PATH, options)
  const cohort = useApi(COHORT_PATH, options)
  usePageTitle(cohort.status === "ready" ? cohortName(cohort.data) : "Cohort")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  // A new form after a delete or a restore, showing what the API holds; kept across saves.
  const [generation, setGeneration] = useState(0)
  // Delete and Restore take each other's place: the keyboard moves to the one now there.
  const actions = useRef<HTMLSpanElement>(null)
  const [actionSwapped, setActionSwapped] = useState(false)
  useEffect(() => {
    if (!actionSwapped) return
    actions.current?.querySelector("button")?.focus()
    setActionSwapped(false)
  }, [actionSwapped])

  const write = (payload: ReturnType<typeof cohortFieldsOf> | { readonly deleted: boolean }) =>
    request("PATCH", COHORT_PATH, { ...options, payload }).then((updated) => {
      invalidateWith(cohortsPrefix(projectId), key, updated)
      return updated
    })
  const save = (draft: CohortDraft) => {
    setBusy(true)
    setError(undefined)
    setNotice(undefined)
    return write(cohortFieldsOf(draft, false))
      .then(() => {
        setNotice("Saved.")
        return true
      }, (cause: unknown) => {
        setError(asApiError(cause))
        return false
      })
      .finally(() => setBusy(false))
  }
  const restore = () => {
    setBusy(true)
    setError(undefined)
    write({ deleted: false })
      .then(() => {
        setGeneration((old) => old + 1)
        setNotice("The cohort is restored.")
        setActionSwapped(true)
      }, (cause: unknown) => setError(asApiError(cause)))
      .finally(() => setBusy(false))
  }

  return (
    <Resourceful resource={cohort} onRetry={() => invalidate(key)}>
      {(cohort) => {
        const tabs = tabsOf(cohort)
        const shown = tabs.includes(tab) ? tab : "settings"
        return (
          <>
            <p className="breadcrumb">
              <Link href={hrefOf({ page: "cohorts", projectId, search: "", pageNumber: 1 })}>Cohorts</Link>
            </p>
            <div className="page-head">
              <h1>{cohortName(cohort)}</h1>
              <span className="badge">{cohortKind(cohort)}</span>
              {cohort.deleted ? <span className="badge">Deleted</span> : null}
              <span className="page-actions" ref={actions}>
                {cohort.deleted
                  ? <button type="button" disabled={busy} onClick={restore}>Restore cohort</button>
                  : (
                    <ConfirmDialog
                      label="Delete cohort"
                      title={`Delete ${cohortName(cohort)}?`}
                      confirmLabel="Delete cohort"
                      disabled={busy}
                      action={() => write({ deleted: true })}
                      onDone={() => {
                        setGeneration((old) => old + 1)
                        setNotice("The cohort is deleted; it can be restored.")
                        setActionSwapped(true)
                      }}
                    >
                      <p>
                        Flags can no longer target it. The API refuses while an active flag or another cohort uses it; it
                        can be restored from this page.
                      </p>
                    </ConfirmDialog>
                  )}
              </span>
            </div>
            {cohort.is_static ? <p>{cohort.count ?? 0} {cohort.count === 1 ? "person" : "persons"}.</p> : null}
            <p role="status" className="notice">{notice ?? ""}</p>
            {error !== undefined && shown !== "settings" ? <p role="alert" className="form-error">{error.detail}</p> : null}
            <Tabs
              label="Cohort sections"
              tabs={tabs.map((name) => ({
                href: hrefOf({ page: "cohort", projectId, cohortId, tab: name, pageNumber: 1 }),
                words: TAB_WORDS[name],
                current: name === shown
              }))}
            />
            {shown === "settings"
              ? (
                <>
                  {cohort.deleted ? <p className="hint">A deleted cohort cannot be changed; restore it first.</p> : null}
                  <CohortForm
                    key={`${cohort.id}-${generation}`}
                    initial={cohortDraftOf(cohort)}
                    isNew={false}
                    readOnly={cohort.deleted}
                    busy={busy}
                    error={error}
                    onSave={save}
                  />
                </>
              )
              : shown === "persons"
              ? <CohortPersons projectId={projectId} cohortId={cohortId} pageNumber={pageNumber} readOnly={cohort.deleted} />
              : <CohortActivity projectId={projectId} cohortId={cohortId} pageNumber={pageNumber} />}
          </>
        )
      }}
    </Resourceful>
  )
}
