import { filtersLines } from "./filters-words.ts"

/** JSON as the API stored it, indented; a dash for none. */
const rawOf = (value: unknown): string => value === null || value === undefined ? "—" : JSON.stringify(value, null, 2)

/**
 * Two versions of a flag's release conditions in words, side by side: the lines the change took away
 * marked in the first, the lines it brought in the second (in words too, for a screen reader, which
 * does not announce the marks). The stored JSON stays behind a disclosure.
 */
export const FiltersDiff = ({ before, after }: { readonly before: unknown; readonly after: unknown }) => {
  const was = filtersLines(before)
  const now = filtersLines(after)
  return (
    <div className="filters-diff">
      <div>
        <p className="diff-side">Before</p>
        <ul>
          {was.map((line, index) =>
            now.includes(line)
              ? <li key={index}>{line}</li>
              : <li key={index}><del><span className="visually-hidden">Removed: </span>{line}</del></li>
          )}
        </ul>
      </div>
      <div>
        <p className="diff-side">After</p>
        <ul>
          {now.map((line, index) =>
            was.includes(line)
              ? <li key={index}>{line}</li>
              : <li key={index}><ins><span className="visually-hidden">Added: </span>{line}</ins></li>
          )}
        </ul>
      </div>
      <details className="raw-json">
        <summary>Stored JSON</summary>
        <div className="raw-json-pair">
          <pre aria-label="Before, as JSON">{rawOf(before)}</pre>
          <pre aria-label="After, as JSON">{rawOf(after)}</pre>
        </div>
      </details>
    </div>
  )
}
