import type { Success } from "../api/contract.ts"
import { TableScroll } from "../ui/table-scroll.tsx"

/** A flag's usage report as the API answers it. */
export type UsageReport = Success<"GET", "/api/projects/:project_id/feature_flags/:id/usage/">

/** How many series have a color of their own; the rest share the last. */
const SERIES_COLORS = 6

const BAR = 10
const GAP = 2
const HEIGHT = 100

/** The value a series counts, as the flag's page words it: on, off, or the variant's key. */
export const valueWords = (value: string): string => value === "true" ? "On (true)" : value === "false" ? "Off (false)" : value

const seriesClass = (index: number) => `series-${Math.min(index, SERIES_COLORS - 1) + 1}`

/**
 * The report's calls per day as stacked bars, one color per value returned, drawn as inline SVG. The
 * picture is decoration for a sighted reader: its name says what it shows in a sentence, and the table
 * beside it holds every number.
 */
export const UsageChart = ({ report }: { readonly report: UsageReport }) => {
  const totals = report.days.map((_, day) => report.results.reduce((sum, series) => sum + (series.data[day] ?? 0), 0))
  const highest = Math.max(1, ...totals)
  const width = report.days.length * (BAR + GAP)
  const summary = `Calls per day from ${report.date_from} to ${report.date_to}: ${report.total} in all, at most ${Math.max(0, ...totals)} in a day; ` +
    report.results.map((series) => `${valueWords(series.breakdown_value)} ${series.count}`).join(", ")
  return (
    <figure className="usage-chart">
      <div className="usage-plot">
        <span className="usage-axis" aria-hidden="true">{highest}</span>
        <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none">
          {report.days.map((day, at) => {
            let base = HEIGHT
            return (
              <g key={day}>
                {report.results.map((series, index) => {
                  const count = series.data[at] ?? 0
                  if (count === 0) return null
                  const height = (count / highest) * HEIGHT
                  base -= height
                  return <rect key={series.breakdown_value} className={seriesClass(index)} x={at * (BAR + GAP)} y={base} width={BAR} height={height} />
                })}
              </g>
            )
          })}
        </svg>
      </div>
      <p className="usage-days" aria-hidden="true"><span>{report.date_from}</span><span>{report.date_to}</span></p>
      <figcaption>
        <ul className="usage-legend">
          {report.results.map((series, index) => (
            <li key={series.breakdown_value}>
              <span className={`swatch ${seriesClass(index)}`} aria-hidden="true" />
              {valueWords(series.breakdown_value)}: {series.count}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  )
}

/** Every day with a call, a column per value returned and their total: the chart's numbers. */
export const UsageTable = ({ report }: { readonly report: UsageReport }) => {
  const days = report.days.flatMap((day, at) => {
    const counts = report.results.map((series) => series.data[at] ?? 0)
    const total = counts.reduce((sum, n) => sum + n, 0)
    return total === 0 ? [] : [{ day, counts, total }]
  })
  return (
    <TableScroll label="Calls by day">
      <table className="usage-table">
        <caption>Calls by day (days with none left out)</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {report.results.map((series) => <th key={series.breakdown_value} scope="col">{valueWords(series.breakdown_value)}</th>)}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {days.map(({ day, counts, total }) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {counts.map((count, index) => <td key={index}>{count}</td>)}
              <td>{total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
