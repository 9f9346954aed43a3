import { useRef, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Payload } from "../api/contract.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { ActivityPanel } from "../flags/activity.tsx"
import { type Draft, draftOf } from "../flags/draft.ts"
import { CodePanel } from "../flags/code.tsx"
import { EvaluatePanel } from "../flags/evaluate.tsx"
import { type Flag, FLAG_PATH, flagsPrefix } from "../flags/flag.tsx"
import { FlagForm } from "../flags/flag-form.tsx"
import { ReleaseSummary } from "../flags/release-summary.tsx"
import { restoreFlag } from "../flags/restore.ts"
import type { RestoredValues } from "../flags/restore-version.tsx"
import { RoleAccessPanel } from "../flags/role-access.tsx"
import { changedFieldsOf } from "../flags/save.ts"
import { FlagStatus } from "../flags/status.tsx"
import { useSuggestions } from "../flags/suggestions.ts"
import { UsagePanel } from "../flags/usage.tsx"
import { Link } from "../router/navigation.tsx"
import { ALL_FLAGS, type FlagTab, hrefOf } from "../router/routes.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { Tabs } from "../ui/tabs.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"

const TAB_WORDS: Record<FlagTab, string> = {
  settings: "Settings",
  access: "Role access",
  activity: "Activity",
  evaluate: "Test evaluation",
  usage: "Usage",
  code: "Use in code"
}

/** A 409 to a save: someone changed the flag since this page read it. Nothing was written. Focusable, as a refused save's first problem. */
const Conflict = ({ onReload }: { readonly onReload: () => void }) => (
  <div role="alert" tabIndex={-1} className="conflict">
    <p className="state-title">This flag was changed by someone else since you opened it.</p>
    <p>Your changes were not saved. Reload it to see theirs, then make yours again.</p>
    <button type="button" onClick={onReload}>Reload the flag</button>
  </div>
)

/** Why a member who may not edit the flag sees it read-only, and who may. */
const VIEW_ONLY = "You can view this flag but not change it: its creator, the organization's admins and owners, and members of a role given access to it can."

/** A deleted flag: what that means, and the way back. A refusal (its key taken since) is shown in the API's words. */
const DeletedBanner = ({ canRestore, focus, onRestore }: {
  readonly canRestore: boolean
  /** Takes the focus as it appears: the flag was deleted here, and its Delete button is gone. */
  readonly focus: boolean
  readonly onRestore: () => Promise<unknown>
}) => {
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<string | undefined>(undefined)
  const restore = () => {
    setBusy(true)
    setRefusal(undefined)
    onRestore().then(
      () => setBusy(false),
      (cause: unknown) => {
        setBusy(false)
        setRefusal(asApiError(cause).detail)
      }
    )
  }
  return (
    <div className="deleted-banner">
      <p className="state-title">This flag is deleted.</p>
      <p>SDKs no longer get it, and it cannot be changed until it is restored.</p>
      {canRestore ? <button type="button" autoFocus={focus} disabled={busy} onClick={restore}>Restore</button> : null}
      {refusal === undefined ? null : <p role="alert" className="form-error">{refusal}</p>}
    </div>
  )
}

/**
 * One flag: its status, its settings form, the roles with access, its activity, a test evaluation, its
 * usage and code to use it, each a tab in the URL. Every write sends the `version` the page read, so a change made meanwhile by
 * someone else is refused (409) and shown, never overwritten. A flag the caller may not edit
 * (`can_edit: false`) or a deleted one is shown read-only, the deleted one with a way to restore it;
 * delete is asked about first.
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
  const suggestions = useSuggestions(projectId, Number(flagId))
  usePageTitle(flag.status === "ready" ? flag.data.key : "Feature flag")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [conflict, setConflict] = useState(false)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  // A new form (what the API holds) after a reload; kept across saves, so the keyboard's place stays.
  const [generation, setGeneration] = useState(0)

  const save = (current: Flag, draft: Draft): Promise<boolean> => {
    setBusy(true)
    setError(undefined)
    setNotice(undefined)
    return request("PATCH", FLAG_PATH, { ...options, payload: { ...changedFieldsOf(draftOf(current), draft), version: current.version } }).then(
      (updated) => {
        invalidateWith(flagsPrefix(projectId), key, updated)
        return true
      },
      (cause: unknown) => {
        const failure = asApiError(cause)
        if (failure.status === 409) setConflict(true)
        else setError(failure)
        return false
      }
    ).finally(() => setBusy(false))
  }
  const remove = (current: Flag) => request("PATCH", FLAG_PATH, { ...options, payload: { deleted: true, version: current.version } })
  // Set when the flag was deleted or restored here: the button pressed is gone, so the focus is moved on.
  const [moved, setMoved] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  /** An activity entry's earlier values written back; a 409 shows as a save's does, any other refusal stays in the dialog. */
  const restore = (current: Flag, values: RestoredValues): Promise<void> => {
    setError(undefined)
    setNotice(undefined)
    const payload = { ...(values as Payload<"PATCH", typeof FLAG_PATH>), version: current.version }
    return request("PATCH", FLAG_PATH, { ...options, payload }).then(
      (updated) => {
        invalidateWith(flagsPrefix(projectId), key, updated)
        setNotice("The earlier version is restored.")
      },
      (cause: unknown) => {
        const failure = asApiError(cause)
        if (failure.status !== 409) throw failure
        setConflict(true)
      }
    )
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
            <h1 ref={heading} tabIndex={-1}>{flag.key}</h1>
            {flag.deleted || !flag.can_edit ? null : (
              <ConfirmDialog
                label="Delete feature flag"
                title={`Delete "${flag.key}"?`}
                confirmLabel="Delete"
                disabled={busy}
                action={() => remove(flag)}
                onDone={(updated) => {
                  // After the dialog has closed, so that the button it gives the focus back to is still there.
                  invalidateWith(flagsPrefix(projectId), key, updated)
                  setMoved(true)
                  setGeneration((old) => old + 1)
                  setNotice("The flag is deleted; it can be restored.")
                }}
              >
                <p>
                  SDKs stop getting it at once: code that asks for "{flag.key}" gets nothing. It stays among the project's deleted
                  flags, from where it can be restored while no other flag takes its key.
                </p>
              </ConfirmDialog>
            )}
          </div>
          <ReleaseSummary projectId={projectId} flag={flag} />
          {flag.deleted
            ? (
              <DeletedBanner
                canRestore={flag.can_edit}
                focus={moved}
                onRestore={() =>
                  restoreFlag(projectId, flag).then(() => {
                    setGeneration((old) => old + 1)
                    setNotice("The flag is restored.")
                    heading.current?.focus()
                  })}
              />
            )
            : null}
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
                stored={{ lastCalledAt: flag.last_called_at }}
                busy={busy}
                error={error}
                suggestions={suggestions}
                readOnly={!flag.can_edit ? VIEW_ONLY : flag.deleted ? "Restore the flag to change it." : undefined}
                onSave={(draft: Draft) => save(flag, draft)}
              >
                {conflict ? <Conflict onReload={reload} /> : null}
              </FlagForm>
            )
            : tab === "activity"
            ? <ActivityPanel projectId={projectId} flag={flag} pageNumber={pageNumber} onRestore={(values) => restore(flag, values)} />
            : tab === "usage"
            ? <UsagePanel projectId={projectId} flagId={flagId} lastCalledAt={flag.last_called_at} />
            : project.status !== "ready"
            ? <Resourceful resource={project}>{() => null}</Resourceful>
            : tab === "access"
            ? <RoleAccessPanel projectId={projectId} flagId={flagId} organizationId={project.data.organization} pageNumber={pageNumber} />
            : tab === "code"
            ? <CodePanel flag={flag} token={project.data.api_token} />
            : <EvaluatePanel key={flag.key} projectId={projectId} flagId={flagId} />}
        </>
      )}
    </Resourceful>
  )
}
