import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { When } from "../ui/when.tsx"
import { type ActivityEntry, changeStory, type ChangeStory } from "./activity-words.ts"
import type { Flag } from "./flag.tsx"
import { StoryItem } from "./activity-entry.tsx"

/** The fields an entry's earlier values are written back to; the version and the deletion are not (Delete and Restore do that). */
const RESTORABLE = [
  "key", "name", "filters", "active", "tags", "ensure_experience_continuity", "evaluation_runtime",
  "is_remote_configuration", "has_encrypted_payloads", "has_enriched_analytics", "rollback_conditions", "performed_rollback"
] as const
type Restorable = (typeof RESTORABLE)[number]

/** What an emptied field was before it was first set, where the API takes an empty value back. */
const EMPTY: Partial<Record<Restorable, unknown>> = { name: "", tags: [] }

/** The fields as they were before the entry's change, each one the entry changed and the API can take back. */
export const earlierValues = (entry: ActivityEntry): Partial<Record<Restorable, unknown>> => {
  const values: Partial<Record<Restorable, unknown>> = {}
  if (entry.activity !== "updated") return values
  for (const change of entry.detail.changes ?? []) {
    const field = RESTORABLE.find((name) => name === change.field)
    if (field === undefined) continue
    const before = change.before === null ? EMPTY[field] : change.before
    if (before !== undefined) values[field] = before
  }
  return values
}

/** The changes writing `values` over the flag as it is now would make, told as its activity would tell them. */
const changesOver = (flag: Flag, values: Partial<Record<Restorable, unknown>>): Array<ChangeStory> =>
  (Object.keys(values) as Array<Restorable>).flatMap((field) => {
    const now: unknown = flag[field]
    const then = values[field]
    if (JSON.stringify(now) === JSON.stringify(then)) return []
    const story = changeStory({ type: "FeatureFlag", action: "changed", field, before: now, after: then ?? null })
    return story === undefined ? [] : [story]
  })

/**
 * "Restore this version" on an entry that changed the flag: asks first, showing what writing the entry's
 * earlier values over the flag as it is now would change, then hands them to `onRestore` (a PATCH with
 * the version the page read). Offered only to someone who can edit the flag, and only where the earlier
 * values differ from what the flag holds.
 */
export const RestoreVersion = ({ flag, entry, onRestore }: {
  readonly flag: Flag
  readonly entry: ActivityEntry
  readonly onRestore: (values: Partial<Record<Restorable, unknown>>) => Promise<void>
}) => {
  if (!flag.can_edit || flag.deleted) return null
  const values = earlierValues(entry)
  const changes = changesOver(flag, values)
  if (changes.length === 0) return null
  return (
    <ConfirmDialog
      label={<>Restore this version<span className="visually-hidden"> (before the change of <When at={entry.created_at} />)</span></>}
      title="Restore the flag as it was before this change?"
      confirmLabel="Restore this version"
      action={() => onRestore(values)}
    >
      <p>This changes the flag as it is now:</p>
      <ul className="changes">{changes.map((story, index) => <StoryItem key={index} story={story} />)}</ul>
    </ConfirmDialog>
  )
}

export type RestoredValues = Partial<Record<Restorable, unknown>>
