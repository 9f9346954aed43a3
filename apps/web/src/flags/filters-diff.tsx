import { releaseLines } from "./release-words.ts"

/** JSON as the API stored it, indented; a dash for none. */
const rawOf = (value: unknown): string => value === null || value === undefined ? "—" : JSON.stringify(value, null, 2)

/** One side of the comparison: its lines, those not on the other side marked as gone (`del`) or new (`ins`). */
const Side = ({ title, lines, other, mark }: {
  readonly title: string
  readonly lines: ReadonlyArray<string>
  readonly other: ReadonlyArray<string>
  readonly mark: "del" | "ins"
}) => {
  const Mark = mark
  return (
    <div>
      <p className="diff-side">{title}</p>
      <ul>
        {lines.map((line, index) =>
          other.includes(line)
            ? <li key={index}>{line}</li>
            : <li key={index}><Mark><span className="visually-hidden">{mark === "del" ? "Removed: " : "Added: "}</span>{line}</Mark></li>
        )}
      </ul>
    </div>
  )
}

/**
 * Two versions of a flag's release conditions in words, side by side: the lines the change took away
 * marked in the first, the lines it brought in the second (in words too, for a screen reader, which
 * does not announce the marks). The stored JSON stays behind a disclosure.
 */
export const FiltersDiff = ({ before, after }: { readonly before: unknown; readonly after: unknown }) => {
  const was = releaseLines(before)
  const now = releaseLines(after)
  return (
    <div className="filters-diff">
      <Side title="Before" lines={was} other={now} mark="del" />
      <Side title="After" lines={now} other={was} mark="ins" />
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
