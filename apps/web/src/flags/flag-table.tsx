import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { When } from "../ui/when.tsx"
import { ActiveSwitch } from "./active-switch.tsx"
import { type Flag, StatusBadge } from "./flag.tsx"
import { DEFAULT_ORDER, SortHeader } from "./sort-header.tsx"
import { summaryOf } from "./summary.ts"
import { useSummaryNames } from "./summary-names.ts"

/** The flags the person may select for a change to all of them: those they may change. */
export const selectableFlags = (flags: ReadonlyArray<Flag>) => flags.filter((flag) => flag.can_edit)

/**
 * A page of flags: each with a box to select it when the person may change it, its key (and description),
 * its release in words, its switch, status, tags and creation; the sortable columns sort the list by the
 * API's `order`. On a narrow screen each row stands as a card, its cells one under another with their
 * column's name.
 */
export const FlagTable = ({ loading, projectId, flags, count, order, onOrder, selected, onSelect, onChanged }: {
  /** The rows shown are the last ones while the list's next read is out. */
  readonly loading: boolean
  readonly projectId: string
  readonly flags: ReadonlyArray<Flag>
  readonly count: number
  /** The API's `order`, empty for its default. */
  readonly order: string
  readonly onOrder: (order: string) => void
  readonly selected: ReadonlySet<number>
  readonly onSelect: (ids: ReadonlyArray<number>, selected: boolean) => void
  readonly onChanged: (flag: Flag) => void
}) => {
  const names = useSummaryNames(projectId, flags)
  const current = order === "" ? DEFAULT_ORDER : order
  const selectable = selectableFlags(flags)
  const allSelected = selectable.length > 0 && selectable.every((flag) => selected.has(flag.id))
  return (
    <table className="flags" aria-busy={loading}>
      <caption className="visually-hidden">Feature flags, {count} in all</caption>
      <thead>
        <tr>
          <td className="select">
            {selectable.length === 0 ? null : (
              <input
                type="checkbox"
                aria-label="Select every flag on this page you can change"
                checked={allSelected}
                onChange={(event) => onSelect(selectable.map((flag) => flag.id), event.target.checked)}
              />
            )}
          </td>
          <SortHeader field="key" order={current} onOrder={onOrder}>Key</SortHeader>
          <th scope="col">Release</th>
          <SortHeader field="active" order={current} onOrder={onOrder}>Enabled</SortHeader>
          <th scope="col">Status</th>
          <th scope="col">Tags</th>
          <SortHeader field="created_at" order={current} onOrder={onOrder}>Created</SortHeader>
        </tr>
      </thead>
      <tbody>
        {flags.map((flag) => (
          <tr key={flag.id}>
            <td className="select">
              {flag.can_edit
                ? (
                  <input
                    type="checkbox"
                    aria-label={`Select ${flag.key}`}
                    checked={selected.has(flag.id)}
                    onChange={(event) => onSelect([flag.id], event.target.checked)}
                  />
                )
                : null}
            </td>
            <td className="flag-key" data-label="Key">
              <Link href={hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "settings", pageNumber: 1 })}>{flag.key}</Link>
              {flag.name === "" ? null : <span className="flag-description">{flag.name}</span>}
            </td>
            <td className="release" data-label="Release">{summaryOf(flag, names)}</td>
            <td data-label="Enabled"><ActiveSwitch projectId={projectId} flag={flag} onChanged={onChanged} /></td>
            <td data-label="Status"><StatusBadge status={flag.status} /></td>
            <td data-label="Tags">{flag.tags.join(", ")}</td>
            <td data-label="Created">
              <When at={flag.created_at} dateOnly />
              {flag.created_by === null ? null : <span className="flag-creator">{flag.created_by.email}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
