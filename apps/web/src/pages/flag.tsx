import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { ActivityPanel } from "../flags/activity.tsx"
import { type Draft, draftOf } from "../flags/draft.ts"
import { EvaluatePanel } from "../flags/evaluate.tsx"
import { type Flag, FLAG_PATH, flagsPrefix } from "../flags/flag.tsx"
import { FlagForm } from "../flags/flag-form.tsx"
import { ReleaseSummary } from "../flags/release-summary.tsx"
import { RoleAccessPanel } from "../flags/role-access.tsx"
import { fieldsOf } from "../flags/save.ts"
import { FlagStatus } from "../flags/status.tsx"
import { Link } from "../router/navigation.tsx"
import { ALL_FLAGS, type FlagTab, hrefOf } from "../router/routes.ts"
import { Tabs } from "../ui/tabs.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"

const TAB_WORDS: Record<FlagTab, string> = {
  settings: "Settings",
  access: "Role access",
  activity: "Activity",
  evaluate: "Test evaluation"
}

/** A 409 to a save: someone changed the flag since this page read it. Nothing was written. */
const Conflict = ({ onReload }: { readonly onReload: () => void }) => (
  <div role="alert" className="conflict">
    <p className="state-title">This flag was changed by someone else since you opened it.</p>
    <p>Your changes were not saved. Reload it to see theirs, then make yours again.</p>
    <button type="button" onClick={onReload}>Reload the flag</button>
  </div>
)

/**
 * One flag: its status, its settings form, the roles with access, its activity and a test evaluation,
 * each a tab in the URL. Every write sends the `version` the page read, so a change made meanwhile by
 * someone else is refused (409) and shown, never overwritten.
 */
export default function FlagPage({ projectId, flagId, tab, pageNumber }: {
  readonly projectId: string
  readonly flagId: string
  readonly tab: FlagTab
  readonly pageNumber: number
}) {
  const options = { params: { project_id: projectId, id: flagId } }
  const key = urlOf(FLAG_PATH, options)
  const flag = useApi(FLAG_PATH, options)
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  usePageTitle(flag.status === "ready" ? flag.data.key : "Feature flag")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [conflict, setConflict] = useState(false)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  // A new form (what the API holds) after a reload; kept across saves, so the keyboard's place stays.
  const [generation, setGeneration] = useState(0)

  const write = (current: Flag, fields: Partial<ReturnType<typeof fieldsOf>> & { readonly deleted?: boolean }, done: string) => {
    setBusy(true)
    setError(undefined)
    setNotice(undefined)
    request("PATCH", FLAG_PATH, { ...options, payload: { ...fields, version: current.version } }).then(
      (updated) => {
        invalidateWith(flagsPrefix(projectId), key, updated)
        setNotice(done)
      },
      (cause: unknown) => {
        const failure = asApiError(cause)
        if (failure.status === 409) setConflict(true)
        else setError(failure)
      }
    ).finally(() => setBusy(false))
  }
  const reload = () => {
    setConflict(false)
    setError(undefined)
    setNotice(undefined)
    setGeneration((old) => old + 1)
    invalidate(flagsPrefix(projectId))
  }

  return (
    <Resourceful resource={flag} onRetry={() => invalidate(key)}>
      {(flag) => (
        <>
          <p className="breadcrumb">
            <Link href={hrefOf({ page: "flags", projectId, list: ALL_FLAGS })}>Feature flags</Link>
          </p>
          <div className="page-head">
            <h1>{flag.key}</h1>
            {flag.deleted
              ? <button type="button" disabled={busy} onClick={() => write(flag, { deleted: false }, "The flag is restored.")}>Restore feature flag</button>
              : <button type="button" disabled={busy} onClick={() => write(flag, { deleted: true }, "The flag is deleted; it can be restored.")}>Delete feature flag</button>}
          </div>
          <ReleaseSummary projectId={projectId} flag={flag} />
          <FlagStatus projectId={projectId} flagId={flagId} lastCalledAt={flag.last_called_at} />
          <p role="status" className="notice">{notice ?? ""}</p>
          {conflict && tab !== "settings" ? <Conflict onReload={reload} /> : null}
          {error !== undefined && tab !== "settings" ? <p role="alert" className="form-error">{error.detail}</p> : null}
          <Tabs
            label="Flag sections"
            tabs={(Object.keys(TAB_WORDS) as Array<FlagTab>).map((name) => ({
              href: hrefOf({ page: "flag", projectId, flagId, tab: name, pageNumber: 1 }),
              words: TAB_WORDS[name],
              current: name === tab
            }))}
          />
          {tab === "settings"
            ? (
              <FlagForm
                key={`${flag.id}-${generation}`}
                initial={draftOf(flag)}
                busy={busy}
                error={error}
                onSave={(draft: Draft) => write(flag, fieldsOf(draft), "Saved.")}
              >
                {conflict ? <Conflict onReload={reload} /> : null}
              </FlagForm>
            )
            : tab === "activity"
            ? <ActivityPanel projectId={projectId} flagId={flagId} pageNumber={pageNumber} />
            : project.status !== "ready"
            ? <Resourceful resource={project}>{() => null}</Resourceful>
            : tab === "access"
            ? <RoleAccessPanel projectId={projectId} flagId={flagId} organizationId={project.data.organization} pageNumber={pageNumber} />
            : <EvaluatePanel key={flag.key} flagKey={flag.key} token={project.data.api_token} />}
        </>
      )}
    </Resourceful>
  )
}
