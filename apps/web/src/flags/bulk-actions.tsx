import { type FormEvent, useEffect, useRef, useState } from "react"
import { asApiError } from "../api/client.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { TextField } from "../ui/field.tsx"
import type { Flag } from "./flag.tsx"
import { type FlagChange, patchFlag } from "./patch.ts"

/** What one action on the selected flags came to: each refused flag with the API's words. */
export interface BulkOutcome {
  readonly what: string
  readonly changed: ReadonlyArray<Flag>
  readonly refused: ReadonlyArray<{ readonly id: number; readonly key: string; readonly detail: string }>
}

const flagsWord = (count: number) => `${count} flag${count === 1 ? "" : "s"}`

/**
 * Changes each selected flag on its own (one PATCH each, with the version the list read), so that one
 * refused (a 403 on a flag the caller may only view, a 409 after someone else's change, a flag others
 * depend on) is reported by its key and never hides what happened to the others.
 */
const changeEach = (projectId: string, flags: ReadonlyArray<Flag>, what: string, change: (flag: Flag) => FlagChange): Promise<BulkOutcome> =>
  Promise.allSettled(flags.map((flag) => patchFlag(projectId, flag, change(flag)))).then((settled) => ({
    what,
    changed: settled.flatMap((result) => result.status === "fulfilled" ? [result.value] : []),
    refused: settled.flatMap((result, index) =>
      result.status === "rejected" ? [{ id: flags[index]!.id, key: flags[index]!.key, detail: asApiError(result.reason).detail }] : []
    )
  }))

/**
 * Enable, disable, tag or delete the selected flags. Enabling and tagging are done at once; disabling and
 * deleting ask first, saying how many flags. `onDone` has the outcome, once every flag has answered.
 */
export const BulkActions = ({ projectId, selected, onDone }: {
  readonly projectId: string
  readonly selected: ReadonlyArray<Flag>
  readonly onDone: (outcome: BulkOutcome) => void
}) => {
  const [tag, setTag] = useState("")
  const [busy, setBusy] = useState(false)
  const count = selected.length
  const now = (what: string, change: (flag: Flag) => FlagChange) => {
    setBusy(true)
    changeEach(projectId, selected, what, change).then((outcome) => {
      setBusy(false)
      onDone(outcome)
    })
  }
  const addTag = (event: FormEvent) => {
    event.preventDefault()
    const name = tag.trim()
    if (name === "") return
    now(`Tagged “${name}”`, (flag) => ({ tags: flag.tags.includes(name) ? [...flag.tags] : [...flag.tags, name] }))
    setTag("")
  }
  return (
    <section className="bulk-actions" aria-label="Selected flags">
      <p className="bulk-count">{flagsWord(count)} selected</p>
      <button type="button" disabled={busy || count === 0} onClick={() => now("Enabled", () => ({ active: true }))}>Enable</button>
      <ConfirmDialog
        label="Disable"
        disabled={busy || count === 0}
        title={`Disable ${flagsWord(count)}?`}
        confirmLabel={`Disable ${flagsWord(count)}`}
        action={() => changeEach(projectId, selected, "Disabled", () => ({ active: false }))}
        onDone={onDone}
      >
        <p>Everyone will get these flags' default (false): {selected.map((flag) => flag.key).join(", ")}.</p>
      </ConfirmDialog>
      <form className="bulk-tag" onSubmit={addTag}>
        <TextField label="Tag to add" name="bulk-tag" value={tag} onValue={setTag} />
        <button type="submit" disabled={busy || count === 0 || tag.trim() === ""}>Add tag</button>
      </form>
      <ConfirmDialog
        label="Delete"
        disabled={busy || count === 0}
        title={`Delete ${flagsWord(count)}?`}
        confirmLabel={`Delete ${flagsWord(count)}`}
        action={() => changeEach(projectId, selected, "Deleted", () => ({ deleted: true }))}
        onDone={onDone}
      >
        <p>
          {selected.map((flag) => flag.key).join(", ")} will stop being served, as if they did not exist. They can be restored
          from the deleted flags.
        </p>
      </ConfirmDialog>
    </section>
  )
}

/**
 * What the last action on the selected flags did, flag by flag where it was refused. A new outcome takes
 * the focus: the button pressed is disabled by then (nothing is selected once every flag is done).
 */
export const BulkReport = ({ outcome }: { readonly outcome: BulkOutcome | undefined }) => {
  const report = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (outcome !== undefined) report.current?.focus()
  }, [outcome])
  return (
    <div role="status" className="bulk-report" tabIndex={-1} ref={report}>
      {outcome === undefined ? null : (
        <>
          <p>
            {outcome.what}: {flagsWord(outcome.changed.length)}
            {outcome.refused.length === 0 ? "." : `; ${flagsWord(outcome.refused.length)} refused:`}
          </p>
          {outcome.refused.length === 0 ? null : (
            <ul className="bulk-refusals">
              {outcome.refused.map((refusal) => <li key={refusal.key}><strong>{refusal.key}</strong>: {refusal.detail}</li>)}
            </ul>
          )}
        </>
      )}
    </div>
  )
}
